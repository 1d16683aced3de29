package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reliability defects of {@code rehearse} found by a probe of bad inputs and faults (issue 27): each
 * ends with the documented exit code, one line or the per-device report, and never a stack trace.
 */
class RehearseReliabilityTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private CliRun fake(String... args) {
        List<String> full = new ArrayList<>(List.of("--backend", "fake", "--fake-clock", "virtual", "--fake-state",
                dir.resolve("state.json").toString()));
        full.addAll(List.of(args));
        return RehearseCommandTest.run(full.toArray(String[]::new));
    }

    @ParameterizedTest
    @ValueSource(strings = {"EIO", "EACCES"})
    void anOpenThatFailsDuringTheSetUpGivesThePerDeviceReport(String errno) throws Exception {
        Path faults = Files.writeString(dir.resolve("faults.json"),
                "[{\"device\":\"mlx5-3\",\"call\":\"open\",\"occurrence\":1,\"errno\":\"" + errno + "\"}]");
        CliRun r = fake("--fake-faults", faults.toString(), "rehearse", "--queue-pairs", "1");
        assertEquals(ExitCode.PARTIAL.code(), r.exitCode(), r.err() + r.out());
        assertTrue(r.out().contains("FAILED: mlx5-3: open /dev/vhost-vdpa-") && r.out().contains("(setup) failed: " + errno),
                r.out());
        for (String d : new String[] {"mlx5-0", "mlx5-1", "mlx5-2"}) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(d + " ") && l.contains(" reset ")), d + " not reported reset:\n" + r.out());
        }
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("mlx5-3 ") && l.contains(" closed ")
                && l.contains("open failed (" + errno + ") in the setup phase")), r.out());
        assertTrue(r.noStackTrace(), r.err());

        CliRun j = fake("--fake-faults", faults.toString(), "--json", "rehearse", "--queue-pairs", "1");
        assertEquals(ExitCode.PARTIAL.code(), j.exitCode(), j.err());
        JsonNode doc = JSON.readTree(j.out());
        assertEquals(4, doc.get("devices").size(), j.out());
        assertEquals("mlx5-3", doc.get("failure").get("device").asText(), j.out());
    }
}
