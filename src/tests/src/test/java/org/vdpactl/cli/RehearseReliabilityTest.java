package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
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
        return onVirtualFake(dir.resolve("state.json"), args);
    }

    /** vdpactl (rehearse and bench registered) on the fake backend with a virtual clock and the given state file. */
    static CliRun onVirtualFake(Path state, String... args) {
        List<String> full = new ArrayList<>(List.of("--backend", "fake", "--fake-clock", "virtual", "--fake-state", state.toString()));
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

    /** Impossible sizes, conflicting or meaningless options, rules that could never fire: exit 2 with the reason, nothing run. */
    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(List.of("rehearse", "--memory", "8388607T"), "more than a guest can have"),
                Arguments.of(List.of("rehearse", "--memory", "4096T", "--regions", "4K"), "a guest has at most 32764"),
                Arguments.of(List.of("rehearse", "--memory", "4G", "--regions", "8G"), "--regions 8G is larger than --memory 4G"),
                Arguments.of(List.of("rehearse", "--split", "--dest", "mlx5-2,mlx5-3", "mlx5-0", "mlx5-1"), "--split takes the destinations"),
                Arguments.of(List.of("rehearse", "--flat", "--memory-layout", "LAYOUT"), "--flat has no effect with --memory-layout"),
                Arguments.of(List.of("rehearse", "--memory", "8G", "--memory-layout", "LAYOUT"), "--memory has no effect with --memory-layout"),
                Arguments.of(List.of("--fake-faults", "RULE:mlx5-99", "rehearse"), "rule #1 (device \"mlx5-99\") matches none"),
                Arguments.of(List.of("--fake-faults", "RULE:mlx6-*", "rehearse"), "rule #1 (device \"mlx6-*\") matches none"),
                Arguments.of(List.of("--fake-faults", "RULE:mlx5-3", "rehearse", "mlx5-0"), "rule #1 (device \"mlx5-3\") matches none"),
                Arguments.of(List.of("generate-completion", "--bogus"), "Unknown option: '--bogus'"),
                Arguments.of(List.of("rehearse", "--report", "FILE/x.html"), "is not a directory"));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void refusedWithTheReason(List<String> args, String reason) throws Exception {
        Path layout = Files.writeString(dir.resolve("layout.json"), "{\"regions\":[{\"iova\":0,\"size\":1073741824}]}");
        Path file = Files.writeString(dir.resolve("file"), "x");
        List<String> real = new ArrayList<>();
        for (String a : args) {
            if (a.startsWith("RULE:")) {
                real.add(Files.writeString(dir.resolve("faults.json"), "[{\"device\":\"" + a.substring(5)
                        + "\",\"call\":\"VHOST_VDPA_SUSPEND\",\"errno\":\"EIO\"}]").toString());
            } else {
                real.add(a.replace("LAYOUT", layout.toString()).replace("FILE", file.toString()));
            }
        }
        CliRun r = fake(real.toArray(String[]::new));
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err() + r.out());
        assertTrue(r.err().contains(reason), r.err());
        assertEquals(1, r.err().lines().filter(l -> l.startsWith("vdpactl: ")).count(), r.err());
        assertTrue(r.noStackTrace(), r.err());
        assertTrue(!r.out().contains("Downtime") && !r.out().contains("complete -F"), r.out());
    }

    @Test
    void theKernelBackendWithoutTheVdpaFamilyOrBusIsNotReadyForARehearsal() {
        Assumptions.assumeFalse(Backends.kernelHasVdpa(), "this host's kernel has vDPA");
        Assumptions.assumeFalse(Files.exists(Path.of("/sys/bus/vdpa")), "this host has a vdpa bus");
        CliRun r = RehearseCommandTest.run("--backend", "kernel", "rehearse");
        assertEquals(ExitCode.NOT_READY.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains("vdpa netlink family not available"), r.err());
    }
}
