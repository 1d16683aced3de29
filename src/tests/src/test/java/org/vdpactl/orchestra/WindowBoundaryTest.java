package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Where the downtime starts and ends ({@link WindowMode}), on the virtual clock with a driver of
 * fixed op costs ({@link FixedCostModel}), so every expected figure is hand-made: in a migration's
 * window the reset of a device that is its own destination is preparation, outside the downtime;
 * in the in-place window it is inside; with separate destinations the destination is reset before
 * the window begins.
 */
class WindowBoundaryTest {
    private static final int DEVICES = 4;
    private static final int PAIRS = 16;
    /** The queues whose base save state reads: the data queues (the control queue's is not read, as QEMU 10 does not). */
    private static final int VQS = 2 * PAIRS;
    private static final long NS = 1_000_000;

    private static Timeline run(Strategy strategy, WindowMode window) {
        try (FakeRig rig = FakeRig.withModels(DEVICES, PAIRS, i -> new FixedCostModel(i + 1))) {
            RehearsalPlan.Builder b = RehearsalPlan.builder(rig.devices).strategy(strategy).queuePairs(1);
            RehearsalResult r = rig.rehearsal().run((window == null ? b : b.window(window)).build());
            assertTrue(r.completed(), () -> "rehearsal failed: " + r.failure());
            return r.lastIteration();
        }
    }

    private static long ms(double v) {
        return Math.round(v * NS);
    }

    private static double sumOfFactors() {
        return DEVICES * (DEVICES + 1) / 2.0;
    }

    private static List<Span> resets(Timeline t) {
        return t.spans().stream().filter(s -> s.phase() == Phase.RESET).toList();
    }

    @Test
    void theDefaultIsAMigrationsWindowWithTheResetOutsideTheDowntime() {
        Timeline t = run(Strategy.SERIAL, null);
        double inPlace = 0;
        for (int i = 1; i <= DEVICES; i++) {
            inPlace += FixedCostModel.window(i, VQS, true);
        }
        assertEquals(ms(inPlace - sumOfFactors() * FixedCostModel.RESET), t.downtimeNanos(), "every device's reset left out");
        assertEquals(t.downtimeNanos(), t.criticalPath().nanos(), "the critical path has no reset either");
        assertTrue(t.criticalPath().segments().stream().noneMatch(s -> s.phase() == Phase.RESET));
        assertEquals(Set.of(Phase.RESET), t.preparation());
        assertFalse(t.inDowntime(Phase.RESET));
        // the resets did run (shown as preparation): one per device, between its two roles
        assertEquals(DEVICES, resets(t).size());
        assertEquals(ms(sumOfFactors() * FixedCostModel.RESET), t.phase(Phase.RESET).wallNanos());
        long perDevice = t.deviceNanos().get("mlx5-0");
        assertEquals(ms(FixedCostModel.window(1, VQS, true) - FixedCostModel.RESET), perDevice);
    }

    @Test
    void parallelMigrationWindowLeavesOutTheResetBarrier() {
        Timeline t = run(Strategy.PARALLEL, WindowMode.MIGRATION);
        assertEquals(ms(FixedCostModel.window(DEVICES, VQS, true) - DEVICES * FixedCostModel.RESET), t.downtimeNanos());
    }

    @Test
    void inPlaceWindowCountsEveryReset() {
        Timeline t = run(Strategy.SERIAL, WindowMode.IN_PLACE);
        double sum = 0;
        for (int i = 1; i <= DEVICES; i++) {
            sum += FixedCostModel.window(i, VQS, true);
        }
        assertEquals(ms(sum), t.downtimeNanos());
        assertTrue(t.preparation().isEmpty());
        assertTrue(t.inDowntime(Phase.RESET));
        for (Span s : resets(t)) {
            assertTrue(s.startNanos() >= t.windowStart() && s.endNanos() <= t.windowEnd(), "reset inside the window: " + s);
        }
    }

    @Test
    void separateDestinationsAreResetBeforeTheWindowInBothModes() {
        for (WindowMode mode : WindowMode.values()) {
            try (FakeRig rig = FakeRig.withModels(DEVICES, PAIRS, i -> new FixedCostModel(1))) {
                RehearsalPlan plan = RehearsalPlan.builder(rig.devices.subList(0, 2)).destinations(rig.devices.subList(2, 4))
                        .strategy(Strategy.SERIAL).queuePairs(1).window(mode).build();
                assertTrue(plan.preparationPhases().isEmpty());
                RehearsalResult r = rig.rehearsal().run(plan);
                assertTrue(r.completed(), () -> "rehearsal failed: " + r.failure());
                Timeline t = r.lastIteration();
                assertTrue(resets(t).isEmpty(), mode + ": no reset inside the window");
                // open (the kernel resets the device) and set-up of the destinations precede the window
                List<Span> destinationSetUp = r.setupSpans().stream()
                        .filter(s -> s.device().equals("mlx5-2") || s.device().equals("mlx5-3")).toList();
                // without spans the check below proves nothing: both destinations must have been set up
                assertEquals(Set.of("mlx5-2", "mlx5-3"), destinationSetUp.stream().map(Span::device).collect(Collectors.toSet()),
                        mode + ": set-up spans of both destinations: " + r.setupSpans());
                for (Span s : destinationSetUp) {
                    assertTrue(s.endNanos() <= t.windowStart(), mode + ": destination prepared before the window: " + s);
                }
                // no RESUME: a separate destination was reset before the window, nothing of it is suspended
                double perLane = FixedCostModel.SUSPEND + VQS * FixedCostModel.GET_VQ_STATE + FixedCostModel.SET_MAP
                        + FixedCostModel.DRIVER_OK;
                assertEquals(ms(2 * perLane), t.downtimeNanos(), mode.label());
            }
        }
    }

    @Test
    void windowModesParse() {
        assertEquals(WindowMode.MIGRATION, WindowMode.parse("migration"));
        assertEquals(WindowMode.IN_PLACE, WindowMode.parse("In-Place"));
        assertTrue(Assertions.assertThrows(IllegalArgumentException.class, () -> WindowMode.parse("legacy"))
                .getMessage().contains("migration or in-place"));
    }
}
