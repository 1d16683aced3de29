package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Serial pays the sum, parallel the per-phase maxima, pipelined the slowest device: asserted on
 * the virtual clock with a driver whose op costs are fixed, so the expected figures are hand-made.
 */
class StrategyTimingTest {
    private static final int DEVICES = 4;
    private static final int PAIRS = 16;
    /** The queues whose base save state reads: the data queues (the control queue's is not read, as QEMU 10 does not). */
    private static final int VQS = 2 * PAIRS;
    private static final long NS = 1_000_000;

    private static RehearsalResult run(Strategy strategy, boolean premap, IntFunction<FixedCostModel> models) {
        try (FakeRig rig = FakeRig.withModels(DEVICES, PAIRS, i -> models.apply(i))) {
            // in place: these figures include every device's reset (the window boundaries have their own test)
            RehearsalPlan plan = RehearsalPlan.builder(rig.devices).strategy(strategy).premap(premap).queuePairs(1)
                    .window(WindowMode.IN_PLACE).build();
            RehearsalResult r = rig.rehearsal().run(plan);
            assertTrue(r.completed(), () -> "rehearsal failed: " + r.failure());
            return r;
        }
    }

    private static FixedCostModel scaled(int i) {
        return new FixedCostModel(i + 1);
    }

    private static long ms(double v) {
        return Math.round(v * NS);
    }

    @Test
    void serialPaysTheSumOfEveryDevice() {
        Timeline t = run(Strategy.SERIAL, false, StrategyTimingTest::scaled).lastIteration();
        double sum = 0;
        for (int i = 0; i < DEVICES; i++) {
            sum += FixedCostModel.window(i + 1, VQS, true);
        }
        assertEquals(ms(sum), t.downtimeNanos());
        assertEquals(t.downtimeNanos(), t.criticalPath().nanos());
        // one device after another: device i+1's suspend starts after device i's last window call returned
        for (int i = 1; i < DEVICES; i++) {
            long prevEnd = lastInWindow(t, "mlx5-" + (i - 1));
            long start = first(t, "mlx5-" + i, Phase.SUSPEND);
            assertTrue(start >= prevEnd, "serial overlap between mlx5-" + (i - 1) + " and mlx5-" + i);
        }
    }

    @Test
    void parallelPaysTheSlowestDeviceOfEachPhase() {
        Timeline t = run(Strategy.PARALLEL, false, StrategyTimingTest::scaled).lastIteration();
        assertEquals(ms(FixedCostModel.window(DEVICES, VQS, true)), t.downtimeNanos());
        assertEquals(t.downtimeNanos(), t.criticalPath().nanos());
        for (PhaseSummary p : t.phases()) {
            if (p.wallNanos() > 0) { // configure costs nothing in this model: every device ties
                assertEquals("mlx5-3", p.slowestDevice(), p.phase() + " slowest");
            }
            for (PhaseSummary q : t.phases()) {
                if (q.phase().ordinal() > p.phase().ordinal()) {
                    assertTrue(q.startNanos() >= p.endNanos(), q.phase() + " started before the " + p.phase() + " barrier");
                }
            }
        }
        Map<String, Long> perDevice = t.deviceNanos();
        assertEquals(ms(FixedCostModel.window(1, VQS, true)), perDevice.get("mlx5-0"));
    }

    @Test
    void pipelinedLetsEachDeviceRunAheadAndPaysOnlyTheSlowestDevice() {
        // device 0 has a slow suspend, device 1 a slow set_map: with barriers both slow steps add up
        IntFunction<FixedCostModel> skewed = i -> switch (i) {
            case 0 -> new FixedCostModel(1, 50, FixedCostModel.SET_MAP);
            case 1 -> new FixedCostModel(1, FixedCostModel.SUSPEND, 90);
            default -> new FixedCostModel(1);
        };
        Timeline pipelined = run(Strategy.PIPELINED, false, skewed).lastIteration();
        Timeline parallel = run(Strategy.PARALLEL, false, skewed).lastIteration();
        double base = FixedCostModel.window(1, VQS, true);
        double slowSuspend = base - FixedCostModel.SUSPEND + 50;
        double slowMap = base - FixedCostModel.SET_MAP + 90;
        assertEquals(ms(Math.max(slowSuspend, slowMap)), pipelined.downtimeNanos());
        assertEquals(ms(base + (50 - FixedCostModel.SUSPEND) + (90 - FixedCostModel.SET_MAP)), parallel.downtimeNanos());
        assertEquals("mlx5-1", pipelined.criticalPath().segments().getFirst().device());
        // no barrier: device 1 is already mapping while device 0 is still suspending
        assertTrue(first(pipelined, "mlx5-1", Phase.MAP) < last(pipelined, "mlx5-0", Phase.SUSPEND));
        // but each device keeps its own phase order
        for (String d : pipelined.devices()) {
            long prevEnd = Long.MIN_VALUE;
            for (Phase p : List.of(Phase.SUSPEND, Phase.SAVE_STATE, Phase.RESET, Phase.CONFIGURE, Phase.MAP, Phase.DRIVER_OK,
                    Phase.CVQ_MQ)) {
                assertTrue(first(pipelined, d, p) >= prevEnd, d + " ran " + p + " early");
                prevEnd = last(pipelined, d, p);
            }
        }
    }

    @Test
    void premapMovesSetMapOutOfTheWindow() {
        RehearsalResult inWindow = run(Strategy.PARALLEL, false, StrategyTimingTest::scaled);
        RehearsalResult premapped = run(Strategy.PARALLEL, true, StrategyTimingTest::scaled);
        assertFalse(premapped.plan().runs(Phase.MAP));
        assertTrue(premapped.lastIteration().windowSpans().stream().noneMatch(s -> s.call().startsWith("write IOTLB")),
                "IOTLB writes inside the premapped window");
        assertTrue(premapped.setupSpans().stream().anyMatch(s -> s.call().equals("write IOTLB BATCH_END")), "memory mapped in setup");
        assertEquals(ms(FixedCostModel.window(DEVICES, VQS, false)), premapped.lastIteration().downtimeNanos());
        assertEquals(ms(DEVICES * FixedCostModel.SET_MAP),
                inWindow.lastIteration().downtimeNanos() - premapped.lastIteration().downtimeNanos());
    }

    @Test
    void iterationsFillTheHistograms() {
        try (FakeRig rig = FakeRig.withModels(2, PAIRS, FixedCostModel::new)) {
            RehearsalPlan plan = RehearsalPlan.builder(rig.devices).strategy(Strategy.PARALLEL).queuePairs(1).iterations(5)
                    .window(WindowMode.IN_PLACE).build();
            RehearsalResult r = rig.rehearsal().run(plan);
            assertEquals(5, r.iterations().size());
            assertEquals(5, r.statistics().count());
            long expected = ms(FixedCostModel.window(1, VQS, true));
            assertEquals(expected, r.statistics().downtime().p50(), expected / 500.0);
            assertEquals(EnumSet.copyOf(r.plan().phases()).size() - 1, r.statistics().phases().size(), "no CVQ phase with 1 pair");
        }
    }

    static long first(Timeline t, String device, Phase p) {
        return t.spans().stream().filter(s -> s.device().equals(device) && s.phase() == p).mapToLong(Span::startNanos).min()
                .orElseThrow(() -> new AssertionError("no " + p + " on " + device));
    }

    static long lastInWindow(Timeline t, String device) {
        return t.spans().stream().filter(s -> s.device().equals(device) && s.phase().inWindow()).mapToLong(Span::endNanos).max()
                .orElseThrow(() -> new AssertionError("no window call on " + device));
    }

    static long last(Timeline t, String device, Phase p) {
        return t.spans().stream().filter(s -> s.device().equals(device) && s.phase() == p).mapToLong(Span::endNanos).max()
                .orElseThrow(() -> new AssertionError("no " + p + " on " + device));
    }
}
