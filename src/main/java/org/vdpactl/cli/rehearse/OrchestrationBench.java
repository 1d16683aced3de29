package org.vdpactl.cli.rehearse;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Strategy;
import org.vdpactl.time.Clock;
import org.vdpactl.time.RealClock;
import org.vdpactl.time.VirtualClock;

/**
 * {@code vdpactl bench orchestration}: how close the orchestrator gets to what the devices allow.
 * For each size, the same rehearsal (each device its own destination, full window) runs three times
 * on fresh fake kernels with the mlx5 model: once on a virtual clock with the parallel strategy, whose
 * downtime is the model's critical path (the slowest device of each phase, with no overhead at all),
 * then serial and parallel on the real clock, where every modelled cost really blocks the calling
 * thread as an ioctl does. Parallel should stay within 5% of the critical path and serial should
 * cost about the device count times parallel. A benchmark: it prints figures, it asserts nothing.
 */
public final class OrchestrationBench {
    public static final List<Integer> DEFAULT_SIZES = List.of(1, 4, 16, 64);
    public static final double PARALLEL_GOAL = 1.05;
    public static final double SERIAL_GOAL = 0.9;

    /**
     * One size.
     *
     * @param devices        devices rehearsed
     * @param vqs            data virtqueues per device
     * @param criticalPathMs the model's critical path (virtual clock, parallel)
     * @param parallelMs     measured downtime, parallel (real clock)
     * @param serialMs       measured downtime, serial (real clock)
     */
    public record Row(int devices, int vqs, double criticalPathMs, double parallelMs, double serialMs) {
        public double parallelOverCriticalPath() {
            return parallelMs / criticalPathMs;
        }

        public double serialOverParallel() {
            return serialMs / parallelMs;
        }

        public boolean parallelGoalMet() {
            return parallelOverCriticalPath() <= PARALLEL_GOAL;
        }

        public boolean serialGoalMet() {
            return serialOverParallel() >= SERIAL_GOAL * devices;
        }
    }

    private OrchestrationBench() {
    }

    /**
     * Runs every size.
     *
     * @param progress receives one line per finished measurement (for stderr)
     */
    public static List<Row> run(List<Integer> sizes, int pairs, String preset, GuestMemoryLayout memory, Consumer<String> progress) {
        List<Row> rows = new ArrayList<>();
        for (int n : sizes) {
            double cp = downtimeMs(n, pairs, preset, memory, Strategy.PARALLEL, new VirtualClock());
            progress.accept(n + " devices: model critical path " + String.format(java.util.Locale.ROOT, "%.2f", cp) + " ms");
            double parallel = downtimeMs(n, pairs, preset, memory, Strategy.PARALLEL, RealClock.INSTANCE);
            progress.accept(n + " devices: parallel " + String.format(java.util.Locale.ROOT, "%.2f", parallel) + " ms");
            double serial = downtimeMs(n, pairs, preset, memory, Strategy.SERIAL, RealClock.INSTANCE);
            progress.accept(n + " devices: serial " + String.format(java.util.Locale.ROOT, "%.2f", serial) + " ms");
            rows.add(new Row(n, 2 * pairs, cp, parallel, serial));
        }
        return rows;
    }

    private static double downtimeMs(int n, int pairs, String preset, GuestMemoryLayout memory, Strategy strategy, Clock clock) {
        try (SimulatedHost h = SimulatedHost.mlx5(n, pairs, preset, clock, List.of())) {
            RehearsalPlan plan = RehearsalPlan.builder(h.devices()).strategy(strategy).memory(memory).build();
            RehearsalResult r = h.rehearsal().run(plan);
            if (!r.completed()) {
                throw new IllegalStateException("bench rehearsal of " + n + " devices failed: " + r.failure().summary());
            }
            return r.lastIteration().downtimeNanos() / 1e6;
        }
    }
}
