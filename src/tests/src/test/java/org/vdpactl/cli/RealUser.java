package org.vdpactl.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs vdpactl as a separate process that the operating system's permission checks apply to,
 * although the tests run as root: root with every capability dropped (setpriv --bounding-set=-all),
 * so CAP_DAC_OVERRIDE no longer lets it write a directory of mode 0555. (A switch to uid 65534 would
 * do too, but nobody cannot read the build's class path under root's home.)
 */
final class RealUser {
    private RealUser() {
    }

    record Result(int exitCode, String out, String err) {
    }

    /** Skips the test where setpriv cannot drop capabilities (not root, no CAP_SETPCAP, no setpriv). */
    static void assumeCapabilitiesCanBeDropped() throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("setpriv", "--bounding-set=-all", "--inh-caps=-all", "true").redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("MISSING TOOL: no setpriv (util-linux): " + e.getMessage());
            return;
        }
        p.getInputStream().readAllBytes();
        Assumptions.assumeTrue(p.waitFor() == 0 && "root".equals(System.getProperty("user.name")),
                "cannot drop capabilities here (needs root with CAP_SETPCAP)");
    }

    /** Skips the test where setpriv cannot switch to uid 65534 (not root, no setpriv). */
    static void assumeSetprivToNobody() throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "true").redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("MISSING TOOL: no setpriv (util-linux): " + e.getMessage());
            return;
        }
        p.getInputStream().readAllBytes();
        Assumptions.assumeTrue(p.waitFor() == 0, "setpriv cannot switch to nobody here");
    }

    /**
     * vdpactl as uid/gid 65534 with no supplementary groups. The class path's jars are copied to
     * {@code readable} (mode 0755) first: nobody cannot read them under root's home; the class
     * directories of the build must be reachable by others (they are, under a 0755 tree).
     */
    static Result runAsNobody(Path state, Path readable, String... args) throws IOException, InterruptedException {
        Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path e = Path.of(entry);
            if (Files.isRegularFile(e)) {
                Path copy = readable.resolve(classPath.size() + "-" + e.getFileName());
                Files.copy(e, copy, StandardCopyOption.REPLACE_EXISTING);
                Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
                classPath.add(copy.toString());
            } else {
                classPath.add(entry);
            }
        }
        List<String> cmd = new ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow", "-Duser.home=" + readable, "-cp", String.join(File.pathSeparator, classPath),
                Main.class.getName(), "--backend", "fake", "--fake-state", state.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        return new Result(p.waitFor(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    /**
     * vdpactl --backend fake --fake-state STATE ARGS without the capabilities that pass file permissions, to its end.
     * CAP_NET_ADMIN stays: the fake's process has the caller's credentials, and without it {@code dev add} would be
     * refused by the vdpa family (EPERM) before the state directory is ever written.
     */
    static Result runWithoutCapabilities(Path state, Path logDir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("setpriv", "--bounding-set=-all,+net_admin", "--inh-caps=-all",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "--backend", "fake", "--fake-state", state.toString()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(logDir, "out", ".txt");
        Path err = Files.createTempFile(logDir, "err", ".txt");
        int code = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start().waitFor();
        return new Result(code, Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
