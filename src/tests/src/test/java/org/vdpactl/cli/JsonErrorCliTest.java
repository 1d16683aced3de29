package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * With --json, a refused or failed command prints one JSON error document on stdout (exit code, its
 * name and the same message as the one stderr line), whichever command and whichever way it failed.
 */
class JsonErrorCliTest {
    @TempDir
    static Path tmp;

    static Stream<Arguments> failures() {
        return Stream.of(
                // issue 13: 6.1 has no IOTLB_PERSIST, so --premap is refused
                Arguments.of(ExitCode.NOT_SUPPORTED, new String[] {"--fake-kernel", "6.1", "rehearse", "--premap", "--json"}),
                Arguments.of(ExitCode.NOT_FOUND, new String[] {"--json", "dev", "show", "nosuch"}),
                Arguments.of(ExitCode.USAGE, new String[] {"dev", "add", "m1", "--mgmtdev", "vdpasim_net", "--mac", "ff:ff:ff:ff:ff:ff", "--json"}),
                Arguments.of(ExitCode.USAGE, new String[] {"-j", "vhost", "info", "/dev/null"}),
                Arguments.of(ExitCode.USAGE, new String[] {"-jp", "dev", "add", "m1"}), // picocli: --mgmtdev missing
                Arguments.of(ExitCode.USAGE, new String[] {"--json", "doctor", "--memory", "12Q"}),
                Arguments.of(ExitCode.USAGE, new String[] {"--json", "mgmtdev"}));
    }

    @ParameterizedTest
    @MethodSource("failures")
    void aFailedCommandPrintsOneJsonErrorDocument(ExitCode expected, String[] args) throws Exception {
        CliRun r = onFake(args);
        assertEquals(expected.code(), r.exitCode(), r.err());
        assertEquals(1, r.out().lines().count(), () -> "not one document on stdout:\n" + r.out());
        JsonNode error = new ObjectMapper().readTree(r.out()).get("error");
        assertEquals(expected.code(), error.get("exit").asInt());
        assertEquals(expected.name(), error.get("name").asText());
        String line = r.err().lines().filter(l -> l.startsWith("vdpactl: ")).findFirst().orElseThrow();
        assertEquals(line, "vdpactl: " + error.get("message").asText(), "the JSON message is the stderr line's");
    }

    @Test
    void withoutJsonStdoutStaysEmpty() {
        CliRun r = onFake("--fake-kernel", "6.1", "rehearse", "--premap");
        assertEquals(ExitCode.NOT_SUPPORTED.code(), r.exitCode(), r.err());
        assertEquals("", r.out());
    }

    private static CliRun onFake(String... args) {
        return CliRun.onFake(tmp.resolve("json-error-state.json"), args);
    }
}
