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
 * cost about the device count times parallel. Each real-clock figure is the median of several runs
 * after a warm-up (the first rehearsals in a JVM run interpreted code). A benchmark: it prints
 * figures, it asserts nothing.
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
    public static List<Row> run(List<Integer> sizes, int pairs, String preset, GuestMemoryLayout memory, int repeat,
            Consumer<String> progress) {
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1, got " + repeat);
        }
        int largest = sizes.stream().mapToInt(Integer::intValue).max().orElse(1);
        progress.accept("warming up");
        for (int i = 0; i < 3; i++) {
            downtimeMs(largest, pairs, preset, memory, Strategy.PARALLEL, new VirtualClock());
        }
        downtimeMs(1, pairs, preset, memory, Strategy.PARALLEL, RealClock.INSTANCE);
        List<Row> rows = new ArrayList<>();
        for (int n : sizes) {
            double cp = downtimeMs(n, pairs, preset, memory, Strategy.PARALLEL, new VirtualClock());
            progress.accept(n + " devices: model critical path " + fmt(cp) + " ms");
            double parallel = median(repeat, () -> downtimeMs(n, pairs, preset, memory, Strategy.PARALLEL, RealClock.INSTANCE));
            progress.accept(n + " devices: parallel " + fmt(parallel) + " ms");
            double serial = median(repeat, () -> downtimeMs(n, pairs, preset, memory, Strategy.SERIAL, RealClock.INSTANCE));
            progress.accept(n + " devices: serial " + fmt(serial) + " ms");
            rows.add(new Row(n, 2 * pairs, cp, parallel, serial));
        }
        return rows;
    }

    private static double median(int repeat, java.util.function.DoubleSupplier run) {
        double[] v = new double[repeat];
        for (int i = 0; i < repeat; i++) {
            v[i] = run.getAsDouble();
        }
        java.util.Arrays.sort(v);
        return repeat % 2 == 1 ? v[repeat / 2] : (v[repeat / 2 - 1] + v[repeat / 2]) / 2;
    }

    private static String fmt(double ms) {
        return String.format(java.util.Locale.ROOT, "%.2f", ms);
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
