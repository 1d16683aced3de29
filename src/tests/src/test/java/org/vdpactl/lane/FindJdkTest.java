package org.vdpactl.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * vdpactl's one JDK rule (scripts/lib/jdk.sh): JAVA_HOME when it is a JDK of the minimum version or
 * newer, else the newest such JDK directly inside the folders; a JDK has bin/javac, its version is the
 * release file's JAVA_VERSION, else what bin/java -version says. Every case runs through each place the
 * rule is used from: jdk.sh sourced by bash (the launcher, the scripts, the lane) and by sh (dash), and
 * the Ansible role's generated find-jdk.sh run by sh, which must be jdk.sh's copy exactly.
 */
class FindJdkTest {
    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final Path ROLE = ROOT.resolve("ansible/ansible_collections/vdpactl/vdpa/roles/install");

    @TempDir
    Path dir;
    private Path f1;
    private Path f2;
    private Path f3;

    record Found(int code, String out, String err) {
    }

    @BeforeEach
    void jdks() throws IOException {
        f1 = dir.resolve("f1");
        f2 = dir.resolve("f2");
        f3 = dir.resolve("f3");
        jdk(f1.resolve("jdk-21"), "21.0.2", null, true);
        jdk(f1.resolve("jdk-25"), "25.0.1", null, true);
        jdk(f2.resolve("jdk-24"), "24", null, true);
        jdk(f2.resolve("jre-26"), "26", null, false);        // no javac: not a JDK
        jdk(f2.resolve("jdk-27"), null, "27.0.1", true);     // no release file: java -version says
        jdk(f3.resolve("jdk-22"), "22.0.2", "30.0.1", true); // the release file wins over java -version
    }

    private static void jdk(Path home, String release, String javaVersion, boolean javac) throws IOException {
        Files.createDirectories(home.resolve("bin"));
        if (release != null) {
            Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + release + "\"\n");
        }
        executable(home.resolve("bin/java"), "#!/bin/sh\necho 'openjdk version \"" + (javaVersion == null ? release : javaVersion)
                + "\" 2025-01-01' >&2\n");
        if (javac) {
            executable(home.resolve("bin/javac"), "#!/bin/sh\n");
        }
    }

    private static void executable(Path p, String text) throws IOException {
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static Found run(String javaHome, List<String> cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile());
        pb.environment().remove("JAVA_HOME");
        if (javaHome != null) {
            pb.environment().put("JAVA_HOME", javaHome);
        }
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Found(p.exitValue(), out.trim(), err);
    }

    /** The rule's answer, the same from every implementation (the test fails on any difference). */
    private Found find(String javaHome, String min, Path... folders) throws Exception {
        List<String> args = new ArrayList<>(List.of(min));
        for (Path f : folders) {
            args.add(f.toString());
        }
        String sourced = ". scripts/lib/jdk.sh; vdpactl_find_jdk \"$@\" || exit 1; echo \"$VDPACTL_JAVA_HOME\"";
        List<String> bash = new ArrayList<>(List.of("bash", "-euc", sourced, "jdk.sh"));
        bash.addAll(args);
        List<String> sh = new ArrayList<>(List.of("sh", "-euc", sourced, "jdk.sh"));
        sh.addAll(args);
        List<String> role = new ArrayList<>(List.of("sh", ROLE.resolve("files/find-jdk.sh").toString()));
        role.addAll(args);
        Found first = run(javaHome, bash);
        assertEquals(first, run(javaHome, sh), "jdk.sh under sh");
        assertEquals(first, run(javaHome, role), "the role's find-jdk.sh");
        return first;
    }

    @Test
    void theNewestJdkWinsAndItsVersionComesFromTheReleaseFileElseJavaVersion() throws Exception {
        assertEquals(new Found(0, f2.resolve("jdk-27").toString(), ""), find(null, "22", f1, f2));
        assertEquals(new Found(0, f1.resolve("jdk-25").toString(), ""), find(null, "22", f1));
        assertEquals(new Found(0, f3.resolve("jdk-22").toString(), ""), find(null, "22", f3)); // 22, not 30
        assertEquals(1, find(null, "23", f3).code());
    }

    @Test
    void javaHomeWinsWhenItIsAJdkOfTheMinimum() throws Exception {
        assertEquals(new Found(0, f1.resolve("jdk-25").toString(), ""), find(f1.resolve("jdk-25").toString(), "22", f1, f2));
        Found old = find(f1.resolve("jdk-21").toString(), "22", f1, f2);
        assertEquals(f2.resolve("jdk-27").toString(), old.out());
        assertTrue(old.err().contains("JAVA_HOME=" + f1.resolve("jdk-21") + " is JDK 21, older than 22; looking elsewhere"), old.err());
        assertEquals(f2.resolve("jdk-27").toString(), find(f2.resolve("jre-26").toString(), "22", f1, f2).out()); // a JRE
    }

    @Test
    void noSuitableJdkIsTwoLinesNamingWhereItLooked() throws Exception {
        Found none = find(null, "28", f1, f2);
        assertEquals(1, none.code());
        assertEquals("vdpactl: no JDK >= 28 found (JAVA_HOME unset, nothing suitable in " + f1 + " " + f2 + ").\n"
                + "vdpactl: install one (e.g. Temurin 25 or openjdk-25-jdk) and/or set JAVA_HOME.\n", none.err());
    }

    @Test
    void theRoleShipsExactlyTheGeneratedCopy() throws Exception {
        Found generated = run(null, List.of("scripts/regen-find-jdk", "--print"));
        assertEquals(0, generated.code(), generated.err());
        assertEquals(generated.out(), Files.readString(ROLE.resolve("files/find-jdk.sh")).trim(),
                "roles/install/files/find-jdk.sh differs from scripts/lib/jdk.sh: run scripts/regen-find-jdk");
    }

    @Test
    void theRoleDefaultsAreTheLaunchersMinimumAndFolders() throws Exception {
        String jdkSh = Files.readString(ROOT.resolve("scripts/lib/jdk.sh"));
        String defaults = Files.readString(ROLE.resolve("defaults/main.yml"));
        assertEquals(value(jdkSh, "^VDPACTL_JDK_MIN=(\\d+)$"), value(defaults, "^vdpactl_jdk_min: (\\d+)$"));
        assertEquals(value(jdkSh, "^VDPACTL_JDK_FOLDERS=\"(.*)\"$"),
                value(defaults, "^vdpactl_jdk_dirs: \\[(.*)\\]$").replace(", ", " "));
    }

    private static String value(String text, String regex) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(text);
        assertTrue(m.find(), regex);
        return m.group(1);
    }
}
