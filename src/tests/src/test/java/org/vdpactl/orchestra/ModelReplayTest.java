package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.vdpactl.time.VirtualClock;

/**
 * The replay of a model's waits keeps the parallel strategy's shape: on a virtual clock it takes the
 * model's critical path exactly (the barrier makes each phase cost its slowest device), and it
 * replays every call of the window, waiting only where the model charged time.
 */
class ModelReplayTest {
    private static final long MS = 1_000_000;

    private static Span span(String device, Phase phase, long startMs, long endMs) {
        return new Span(device, phase, "call", startMs * MS, endMs * MS, 0);
    }

    /** Two devices whose slow phases differ: with the barrier 3 + 5 ms, without it only max(1 + 5, 3 + 1) = 6 ms. */
    private static Timeline skewedModel() {
        return new Timeline(Strategy.PARALLEL, List.of(Lane.same("a"), Lane.same("b")), List.of(
                span("a", Phase.SUSPEND, 0, 1), span("b", Phase.SUSPEND, 0, 3),
                span("a", Phase.SAVE_STATE, 3, 5), span("a", Phase.SAVE_STATE, 5, 8), span("b", Phase.SAVE_STATE, 3, 4),
                span("a", Phase.RESUME, 8, 8), span("b", Phase.RESUME, 8, 8)), Set.of());
    }

    @Test
    void eachPhaseCostsItsSlowestDevice() {
        Timeline model = skewedModel();
        assertEquals(8 * MS, model.downtimeNanos());
        Timeline replayed = ModelReplay.of(model).run(new VirtualClock());
        assertEquals(8 * MS, replayed.downtimeNanos());
        // the barrier: no device starts saving state before the slowest device's suspend returned
        long suspendEnd = replayed.spans().stream().filter(s -> s.phase() == Phase.SUSPEND).mapToLong(Span::endNanos).max()
                .orElseThrow();
        assertTrue(replayed.spans().stream().filter(s -> s.phase() == Phase.SAVE_STATE).allMatch(s -> s.startNanos() >= suspendEnd),
                replayed.spans().toString());
    }

    @Test
    void replaysEveryCallAndWaitsOnlyForTheCostlyOnes() {
        ModelReplay replay = ModelReplay.of(skewedModel());
        assertEquals(7, replay.calls());
        assertEquals(5, replay.waits()); // the two resumes cost nothing
        Timeline replayed = replay.run(new VirtualClock());
        assertEquals(7, replayed.spans().size());
        assertEquals(List.of(2 * MS, 3 * MS), replayed.spans().stream()
                .filter(s -> s.device().equals("a") && s.phase() == Phase.SAVE_STATE).map(Span::durationNanos).toList());
    }

    @Test
    void aRehearsalsModelReplaysToItsCriticalPath() {
        // device 0 has a slow suspend, device 1 a slow set_map: only the barrier adds both up
        IntFunction<FixedCostModel> skewed = i -> switch (i) {
            case 0 -> new FixedCostModel(1, 50, FixedCostModel.SET_MAP);
            case 1 -> new FixedCostModel(1, FixedCostModel.SUSPEND, 90);
            default -> new FixedCostModel(1);
        };
        try (FakeRig rig = FakeRig.withModels(3, 2, skewed::apply)) {
            RehearsalPlan plan = RehearsalPlan.builder(rig.devices).strategy(Strategy.PARALLEL).queuePairs(1)
                    .window(WindowMode.IN_PLACE).build();
            RehearsalResult r = rig.rehearsal().run(plan);
            assertTrue(r.completed(), () -> "rehearsal failed: " + r.failure());
            Timeline model = r.lastIteration();
            ModelReplay replay = ModelReplay.of(model);
            assertEquals(model.windowSpans().size(), replay.calls());
            assertEquals(model.downtimeNanos(), replay.run(new VirtualClock()).downtimeNanos());
        }
    }
}
