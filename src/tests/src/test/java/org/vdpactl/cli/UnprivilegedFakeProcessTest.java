package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fake's CLI process runs with its caller's credentials: a real vdpactl process started as uid
 * 65534 without CAP_NET_ADMIN (setpriv, from a root test run) cannot add a device on the fake (EPERM,
 * exit 4), as on the kernel, while reading and rehearsing its own fake devices still work.
 */
class UnprivilegedFakeProcessTest {
    private static final int NOBODY = 65534;
    private static Path work;
    private static String classpath;

    @BeforeAll
    static void copyTheClasspathWhereNobodyCanReadIt() throws Exception {
        assumeTrue(CallerIdentity.current().uid() == 0, "ABORTED: needs root to start a process as uid " + NOBODY + " (setpriv)");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "MISSING TOOL: no /usr/bin/setpriv (util-linux)");
        // the test's own classpath may lie under root's home (the Maven repository), which uid 65534 cannot read
        work = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "vdpactl-nobody",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
        List<String> entries = new ArrayList<>();
        int i = 0;
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(e);
            if (Files.isRegularFile(p)) {
                Path copy = work.resolve((i++) + "-" + p.getFileName());
                Files.copy(p, copy);
                Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
                entries.add(copy.toString());
            } else if (Files.isDirectory(p)) {
                Path copy = work.resolve((i++) + "-dir");
                copyTree(p, copy);
                entries.add(copy.toString());
            }
        }
        classpath = String.join(File.pathSeparator, entries);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                    Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rwxr-xr-x"));
                } else {
                    Files.copy(p, t);
                    Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rw-r--r--"));
                }
            }
        }
    }

    @AfterAll
    static void removeTheCopy() throws IOException {
        if (work != null) {
            try (Stream<Path> s = Files.walk(work)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private record Run(int code, String out, String err) {
    }

    private static Run asNobody(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Duser.home=" + work, "-cp", classpath, Main.class.getName(),
                "--backend", "fake", "--fake-clock", "virtual", "--fake-state", work.resolve("state.json").toString()));
        cmd.addAll(List.of(args));
        Path out = work.resolve("out.txt");
        Path err = work.resolve("err.txt");
        Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("vdpactl as uid " + NOBODY + " did not finish: " + cmd);
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void devAddFailsWithEpermAndExit4AsOnTheKernel() throws Exception {
        Run add = asNobody("dev", "add", "vdpa9", "--mgmtdev", "vdpasim_net");
        assertEquals(ExitCode.PERMISSION.code(), add.code(), add.err());
        assertTrue(add.err().contains("EPERM"), add.err());
        Run list = asNobody("dev", "list");
        assertEquals(0, list.code(), list.err());
        assertTrue(list.out().contains("mlx5-0") && !list.out().contains("vdpa9"), list.out());
        Run rehearse = asNobody("rehearse", "--devices", "1", "--memory", "64M");
        assertEquals(0, rehearse.code(), "its own fake devices can still be rehearsed: " + rehearse.err());
    }
}
