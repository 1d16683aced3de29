package org.vdpactl.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.orchestra.Rehearsal;
import org.vdpactl.orchestra.RehearsalListener;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Strategy;
import org.vdpactl.time.Clock;
import org.vdpactl.time.RealClock;
import org.vdpactl.time.VirtualClock;

/**
 * {@code vdpactl bench orchestration}: how close the orchestrator gets to what the devices allow.
 * For each size, the same rehearsal (each device its own destination, full window) runs three times
 * on fresh fake kernels with the mlx5 model: on a virtual clock with the parallel and the pipelined
 * strategy, whose downtimes are the model's critical paths (no overhead at all), then parallel,
 * pipelined and serial on the real clock, where every modelled cost really blocks the calling thread
 * as an ioctl does. Parallel should stay within 5% of its critical path and serial should cost
 * about the device count times parallel. Each real-clock figure is the median, with the minimum and
 * maximum, of several runs after a warm-up (the first rehearsals in a JVM run interpreted code); each
 * run's window starts on a collected heap. A benchmark: it prints figures, it asserts nothing.
 */
public final class OrchestrationBench {
    public static final List<Integer> DEFAULT_SIZES = List.of(1, 4, 16, 64, 256);
    public static final double PARALLEL_GOAL = 1.05;
    public static final double SERIAL_GOAL = 0.9;

    /** Minimum, median and maximum of repeated runs, in ms. */
    public record Spread(double minMs, double medianMs, double maxMs, int runs) {
        public static Spread of(double[] v) {
            double[] s = v.clone();
            Arrays.sort(s);
            int n = s.length;
            double median = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
            return new Spread(s[0], median, s[n - 1], n);
        }
    }

    /**
     * One size.
     *
     * @param devices                 devices rehearsed
     * @param vqs                     data virtqueues per device
     * @param criticalPathMs          the model's critical path under the parallel strategy (virtual clock)
     * @param parallelMs              measured downtime, parallel (real clock): the median of {@code parallel}
     * @param serialMs                measured downtime, serial (real clock): the median of {@code serial}
     * @param pipelinedCriticalPathMs the model's critical path under the pipelined strategy (virtual clock)
     * @param parallel                the parallel runs
     * @param pipelined               the pipelined runs
     * @param serial                  the serial runs
     */
    public record Row(int devices, int vqs, double criticalPathMs, double parallelMs, double serialMs,
            double pipelinedCriticalPathMs, Spread parallel, Spread pipelined, Spread serial) {

        /** A row of single figures (no spread, no pipelined run): tests and tables. */
        public Row(int devices, int vqs, double criticalPathMs, double parallelMs, double serialMs) {
            this(devices, vqs, criticalPathMs, parallelMs, serialMs, criticalPathMs, Spread.of(new double[] {parallelMs}),
                    null, Spread.of(new double[] {serialMs}));
        }

        public double parallelOverCriticalPath() {
            return parallelMs / criticalPathMs;
        }

        public double serialOverParallel() {
            return serialMs / parallelMs;
        }

        /** Pipelined median over its own critical path, or NaN when not measured. */
        public double pipelinedOverCriticalPath() {
            return pipelined == null ? Double.NaN : pipelined.medianMs() / pipelinedCriticalPathMs;
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
     * @param repeat       real-clock runs per figure of the parallel and the pipelined strategy
     * @param serialRepeat real-clock runs of the serial strategy (it costs the device count times more)
     * @param progress     receives one line per finished measurement (for stderr)
     */
    public static List<Row> run(List<Integer> sizes, int pairs, String preset, GuestMemoryLayout memory, int repeat,
            int serialRepeat, Consumer<String> progress) {
        if (repeat < 1 || serialRepeat < 1) {
            throw new IllegalArgumentException("--repeat and --serial-repeat must be at least 1, got " + repeat + " and "
                    + serialRepeat);
        }
        int largest = sizes.stream().mapToInt(Integer::intValue).max().orElse(1);
        progress.accept("warming up");
        for (int i = 0; i < 3; i++) {
            downtimeMs(largest, pairs, preset, memory, Strategy.PARALLEL, new VirtualClock());
        }
        downtimeMs(Math.min(largest, 4), pairs, preset, memory, Strategy.PARALLEL, RealClock.INSTANCE);
        downtimeMs(Math.min(largest, 4), pairs, preset, memory, Strategy.PIPELINED, RealClock.INSTANCE);
        List<Row> rows = new ArrayList<>();
        for (int n : sizes) {
            double cp = downtimeMs(n, pairs, preset, memory, Strategy.PARALLEL, new VirtualClock());
            double pipelinedCp = downtimeMs(n, pairs, preset, memory, Strategy.PIPELINED, new VirtualClock());
            progress.accept(n + " devices: model critical path " + fmt(cp) + " ms (pipelined " + fmt(pipelinedCp) + " ms)");
            Spread parallel = measure(repeat, n, pairs, preset, memory, Strategy.PARALLEL);
            progress.accept(n + " devices: parallel " + describe(parallel));
            Spread pipelined = measure(repeat, n, pairs, preset, memory, Strategy.PIPELINED);
            progress.accept(n + " devices: pipelined " + describe(pipelined));
            Spread serial = measure(serialRepeat, n, pairs, preset, memory, Strategy.SERIAL);
            progress.accept(n + " devices: serial " + describe(serial));
            rows.add(new Row(n, 2 * pairs, cp, parallel.medianMs(), serial.medianMs(), pipelinedCp, parallel, pipelined, serial));
        }
        return rows;
    }

    private static Spread measure(int runs, int n, int pairs, String preset, GuestMemoryLayout memory, Strategy strategy) {
        double[] v = new double[runs];
        for (int i = 0; i < runs; i++) {
            v[i] = downtimeMs(n, pairs, preset, memory, strategy, RealClock.INSTANCE);
        }
        return Spread.of(v);
    }

    private static String describe(Spread s) {
        return fmt(s.medianMs()) + " ms (min " + fmt(s.minMs()) + ", max " + fmt(s.maxMs()) + ", " + s.runs()
                + (s.runs() == 1 ? " run)" : " runs)");
    }

    private static String fmt(double ms) {
        return String.format(java.util.Locale.ROOT, "%.2f", ms);
    }

    private static double downtimeMs(int n, int pairs, String preset, GuestMemoryLayout memory, Strategy strategy, Clock clock) {
        try (SimulatedHost h = SimulatedHost.mlx5(n, pairs, preset, clock, List.of())) {
            RehearsalPlan plan = RehearsalPlan.builder(h.devices()).strategy(strategy).memory(memory).build();
            Rehearsal rehearsal = h.rehearsal();
            if (!clock.isVirtual()) {
                // the set-up's garbage is not the window's: the window starts on a collected heap, so a
                // young collection (15-60 ms with 256 lane threads to scan) lands in it only if the
                // window itself fills the young generation
                rehearsal.listener(new RehearsalListener() {
                    @Override
                    public void setUpDone(int devices) {
                        System.gc();
                    }
                });
            }
            RehearsalResult r = rehearsal.run(plan);
            if (!r.completed()) {
                throw new IllegalStateException("bench rehearsal of " + n + " devices failed: " + r.failure().summary());
            }
            return r.lastIteration().downtimeNanos() / 1e6;
        }
    }
}
