package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input through the whole CLI: each case must end in exactly one "vdpactl: ..." line naming the
 * problem, the documented exit code, and no stack trace.
 */
class BadInputMatrixTest {
    @TempDir
    static Path tmp;

    static Stream<Arguments> cases() throws IOException {
        Path regular = Files.writeString(tmp.resolve("not-a-device"), "hello");
        return Stream.of(
                Arguments.of(new String[] {"--backend", "bogus", "doctor"}, ExitCode.USAGE, "unknown backend"),
                Arguments.of(new String[] {"no-such-command"}, ExitCode.USAGE, "no-such-command"),
                Arguments.of(new String[] {"doctor", "--memory", "12Q"}, ExitCode.USAGE, "not a size"),
                Arguments.of(new String[] {"doctor", "--memory", "-1G"}, ExitCode.USAGE, "--memory"),
                Arguments.of(new String[] {"--backend", "kernel", "vhost", "info", "/dev/null"}, ExitCode.USAGE,
                        "not a vhost-vdpa device"),
                Arguments.of(new String[] {"--backend", "kernel", "vhost", "info", regular.toString()}, ExitCode.USAGE,
                        "not a character device"),
                Arguments.of(new String[] {"--backend", "kernel", "vhost", "info", "/nonexistent/vhost-vdpa-9"}, ExitCode.NOT_FOUND,
                        "cannot stat"),
                Arguments.of(new String[] {"--backend", "kernel", "vhost", "info", "/dev/null", "--fd", "3"}, ExitCode.USAGE,
                        "exactly one of DEV or --fd"),
                Arguments.of(new String[] {"--backend", "kernel", "vhost", "suspend"}, ExitCode.USAGE, "DEV"),
                Arguments.of(new String[] {"--backend", "kernel", "vhost", "info", "--fd", "-4"}, ExitCode.USAGE, "--fd"));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void endsInOneLineAndTheDocumentedExitCode(String[] args, ExitCode expected, String mentions) {
        CliRun r = CliRun.of(args);
        assertEquals(expected.code(), r.exitCode(), () -> "exit code of " + String.join(" ", args) + "\nstderr: " + r.err());
        assertTrue(r.noStackTrace(), () -> "stack trace printed:\n" + r.err());
        assertTrue(r.errorLines() >= 1, () -> "no vdpactl: line in\n" + r.err());
        assertTrue(r.err().contains(mentions), () -> "stderr does not mention '" + mentions + "':\n" + r.err());
    }
}
