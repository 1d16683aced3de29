package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.sim.OrchestrationBench;

/** {@code vdpactl bench orchestration} runs and prints its table (its figures are a benchmark's: never asserted on). */
class BenchCommandTest {
    /** A group without its subcommand is a usage error with the usage on stderr, as every group (ExitCodeRulesTest). */
    @Test
    void benchIsAParentCommand() {
        CliRun r = RehearseCommandTest.run("bench");
        assertEquals(ExitCode.USAGE.code(), r.exitCode());
        assertTrue(r.err().contains("orchestration"), r.err());
    }

    @Test
    void orchestrationPrintsOneRowPerSize() throws Exception {
        CliRun r = RehearseCommandTest.run("--json", "bench", "orchestration", "--sizes", "1,2", "--queue-pairs", "1", "--memory", "1G",
                "--repeat", "1", "--window", "migration");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        // issue 36 item 6: what it ran on and how, as fields
        assertTrue(doc.get("simulated").asBoolean(), doc.toString());
        assertEquals("fake", doc.at("/backend/kind").asText());
        assertEquals("mlx5-612", doc.get("preset").asText());
        assertEquals("mlx5-612", doc.at("/backend/presets/0").asText());
        assertTrue(doc.get("command").asText().startsWith("vdpactl ") && doc.get("command").asText().contains("bench orchestration"),
                doc.get("command").toString());
        JsonNode rows = doc.get("rows");
        assertEquals(2, rows.size());
        assertEquals(1, rows.get(0).get("devices").asInt());
        assertEquals(2, rows.get(1).get("devices").asInt());
        assertEquals(2, rows.get(1).get("vqs").asInt());
        for (JsonNode row : rows) {
            assertTrue(row.get("critical_path_ms").asDouble() > 0 && row.get("parallel_ms").asDouble() > 0
                    && row.get("serial_ms").asDouble() > 0 && row.get("pipelined_critical_path_ms").asDouble() > 0, row.toString());
            for (String strategy : List.of("parallel", "pipelined", "serial", "replay")) {
                JsonNode s = row.get(strategy);
                assertEquals(1, s.get("runs").asInt(), row.toString());
                assertTrue(s.get("min_ms").asDouble() <= s.get("median_ms").asDouble()
                        && s.get("median_ms").asDouble() <= s.get("max_ms").asDouble(), row.toString());
            }
            assertEquals(row.get("parallel_ms").asDouble(), row.get("parallel").get("median_ms").asDouble());
            assertEquals("migration", row.get("window").asText());
            assertTrue(row.get("window_calls").asInt() > 0 && row.get("cpu_per_call_us").asDouble() >= 0, row.toString()); // CPU time ticks in 10 ms
            // the floor is never below the model: each phase lasts at least its model time
            assertTrue(row.get("predicted_floor_ms").asDouble() >= row.get("critical_path_ms").asDouble() - 1e-9, row.toString());
        }
        assertTrue(r.err().contains("bench: 2 devices: serial"), r.err());
        assertTrue(r.err().contains("bench: 2 devices: pipelined"), r.err());
        assertTrue(r.err().contains("bench: 2 devices: replay of the model's waits"), r.err());
    }

    @Test
    void tableShowsWhatTheMachineAddsAndWhatVdpactlAdds() {
        OrchestrationBench.Spread one = OrchestrationBench.Spread.of(new double[] {120});
        OrchestrationBench.Row row = new OrchestrationBench.Row(64, 32, 100, 120, 6400, 100, one, null, OrchestrationBench.Spread.of(
                new double[] {6400}), "in-place", 12800, 2.0, 105, 1, 1, OrchestrationBench.Spread.of(new double[] {110, 112, 108}));
        assertEquals(1.10, row.replayOverCriticalPath(), 1e-9);
        assertEquals(120.0 / 110, row.parallelOverReplay(), 1e-9);
        String t = BenchCommand.render(List.of(row), "mlx5-612");
        assertTrue(t.contains("110.00") && t.contains("1.100") && t.contains("1.091"), t);
        assertTrue(t.contains("parallel/replay"), t);
        assertEquals(0.10, row.ownShare(), 1e-9);
        assertFalse(row.parallelGoalApplies(), "the replay alone is 1.10 x cp: no orchestrator meets 1.05 here");
        assertTrue(t.contains("parallel: floor 1.100, share MISSED, serial MISSED"), "the floor named, vdpactl's 10 % judged:\n" + t);
        assertTrue(row.serialGoalApplies(), "6400 / 110 = 58.2 reaches 0.9 x 64 = 57.6");
        OrchestrationBench.Row slowFloor = new OrchestrationBench.Row(64, 32, 100, 120, 6400, 100, one, null,
                OrchestrationBench.Spread.of(new double[] {6400}), "in-place", 12800, 2.0, 105, 1, 1,
                OrchestrationBench.Spread.of(new double[] {112}));
        assertFalse(slowFloor.serialGoalApplies(), "6400 / 112 = 57.1: the replay alone misses 57.6");
        assertTrue(BenchCommand.render(List.of(slowFloor), "mlx5-612").contains("share MISSED, serial: floor"));
    }

    /**
     * Where the machine's floor allows the parallel goal it is judged on the parallel figure; vdpactl's own share
     * is what its calls add above the replay of the same waits.
     */
    @Test
    void theParallelGoalIsJudgedWhereTheReplayAllowsItAndTheOwnShareEverywhere() {
        OrchestrationBench.Spread serial = OrchestrationBench.Spread.of(new double[] {6400});
        OrchestrationBench.Row fast = new OrchestrationBench.Row(64, 32, 100, 103, 6400, 100, OrchestrationBench.Spread.of(
                new double[] {103}), null, serial, "in-place", 12800, 2.0, 105, 1, 1, OrchestrationBench.Spread.of(new double[] {102}));
        OrchestrationBench.Row slow = new OrchestrationBench.Row(64, 32, 100, 106, 6400, 100, OrchestrationBench.Spread.of(
                new double[] {106}), null, serial, "in-place", 12800, 2.0, 105, 1, 1, OrchestrationBench.Spread.of(new double[] {101}));
        assertTrue(fast.parallelGoalApplies() && fast.parallelGoalMet() && fast.ownShareGoalMet());
        assertEquals(0.01, fast.ownShare(), 1e-9);
        assertTrue(slow.parallelGoalApplies());
        assertFalse(slow.parallelGoalMet(), "1.06 x cp where the replay is 1.01");
        assertFalse(slow.ownShareGoalMet(), "5 % of the window is vdpactl's");
        String t = BenchCommand.render(List.of(fast, slow), "mlx5-612");
        assertTrue(t.contains("1.0%") && t.contains("parallel ok, share ok, serial ok"), t);
        assertTrue(t.contains("5.0%") && t.contains("parallel MISSED, share MISSED, serial ok"), t);
    }

    @Test
    void anUnknownWindowIsAUsageError() {
        CliRun r = RehearseCommandTest.run("bench", "orchestration", "--sizes", "1", "--window", "sideways");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--window takes migration or in-place"), r.err());
    }

    @Test
    void spreadIsMinimumMedianAndMaximum() {
        OrchestrationBench.Spread odd = OrchestrationBench.Spread.of(new double[] {5, 1, 3});
        assertEquals(new OrchestrationBench.Spread(1, 3, 5, 3), odd);
        OrchestrationBench.Spread even = OrchestrationBench.Spread.of(new double[] {10, 2, 3, 1});
        assertEquals(new OrchestrationBench.Spread(1, 2.5, 10, 4), even);
    }

    @Test
    void tableShowsRatiosAndGoals() {
        String t = BenchCommand.render(List.of(new OrchestrationBench.Row(4, 32, 100, 104, 410),
                new OrchestrationBench.Row(16, 32, 100, 110, 1600), new OrchestrationBench.Row(64, 32, 100, 100, 5000)), "mlx5-612");
        assertTrue(t.contains("1.040") && t.contains("3.94") && t.contains("parallel ok, share -, serial ok"), t);
        assertTrue(t.contains("1.100") && t.contains("parallel MISSED, share -, serial ok"), t);
        assertTrue(t.contains("parallel ok, share -, serial MISSED"), t);
        assertTrue(t.contains("CPUs"), "machine line");
        assertTrue(t.contains("in-place window"), t);
    }
}
