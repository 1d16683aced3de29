package org.vdpactl.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
            Assumptions.abort("no setpriv: " + e.getMessage());
            return;
        }
        p.getInputStream().readAllBytes();
        Assumptions.assumeTrue(p.waitFor() == 0 && "root".equals(System.getProperty("user.name")),
                "cannot drop capabilities here (needs root with CAP_SETPCAP)");
    }

    /** vdpactl --backend fake --fake-state STATE ARGS without capabilities, to its end. */
    static Result runWithoutCapabilities(Path state, Path logDir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("setpriv", "--bounding-set=-all", "--inh-caps=-all",
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
