package org.vdpactl.sim;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.orchestra.Phase;
import org.vdpactl.orchestra.PhaseSummary;
import org.vdpactl.fake.ResourceLimit;
import org.vdpactl.orchestra.Rehearsal;
import org.vdpactl.orchestra.RehearsalListener;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Span;
import org.vdpactl.orchestra.ModelReplay;
import org.vdpactl.orchestra.Strategy;
import org.vdpactl.orchestra.Timeline;
import org.vdpactl.orchestra.WindowMode;
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
 *
 * <p>It also measures what the devices' host work costs: the process CPU time of the virtual-clock
 * window (every thread: lanes, the fake kernel and its model, JIT, GC) per call of the window, and
 * from it a <em>predicted floor</em> for the real clock on this machine's CPUs: phases are separated
 * by the barrier, so each downtime phase lasts at least its model time and at least its calls' CPU
 * time spread over every CPU. A phase of many calls the model charges nothing for (configure)
 * costs only CPU, which no number of devices waiting in parallel can hide.
 */
public final class OrchestrationBench {
    public static final List<Integer> DEFAULT_SIZES = List.of(1, 4, 16, 64, 256);
    public static final double PARALLEL_GOAL = 1.05;
    public static final double SERIAL_GOAL = 0.9;
    /** vdpactl's own share of the window, {@link Row#ownShare()}, at most this at every size (the orchestration goal). */
    public static final double OWN_SHARE_GOAL = 0.02;

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
     * @param window                  the downtime window rehearsed ({@link WindowMode#label()})
     * @param windowCalls             calls in one window (every device)
     * @param cpuPerCallUs            measured process CPU per window call on the virtual clock (the median of three
     *                                windows), in µs
     * @param predictedFloorMs        the least a parallel run can take on this machine's CPUs with that CPU per call
     * @param loadBefore              1-minute load average when the size started (-1: unknown)
     * @param loadAfter               1-minute load average when it ended
     * @param replay                  the model's waits alone on the same lane threads and barrier
     *                                ({@link ModelReplay}, real clock), or null when not measured
     */
    public record Row(int devices, int vqs, double criticalPathMs, double parallelMs, double serialMs,
            double pipelinedCriticalPathMs, Spread parallel, Spread pipelined, Spread serial, String window, int windowCalls,
            double cpuPerCallUs, double predictedFloorMs, double loadBefore, double loadAfter, Spread replay) {

        /** A row of single figures (no spread, no pipelined run, no CPU figures, no replay): tests and tables. */
        public Row(int devices, int vqs, double criticalPathMs, double parallelMs, double serialMs) {
            this(devices, vqs, criticalPathMs, parallelMs, serialMs, criticalPathMs, Spread.of(new double[] {parallelMs}),
                    null, Spread.of(new double[] {serialMs}), WindowMode.IN_PLACE.label(), 0, Double.NaN, Double.NaN, -1, -1,
                    null);
        }

        /** The replay's median over the critical path: what this machine adds with no call made (NaN: not measured). */
        public double replayOverCriticalPath() {
            return replay == null ? Double.NaN : replay.medianMs() / criticalPathMs;
        }

        /** Parallel's median over the replay's: vdpactl's own share of the overhead (NaN: not measured). */
        public double parallelOverReplay() {
            return replay == null ? Double.NaN : parallelMs / replay.medianMs();
        }

        /** The predicted floor over the critical path: the best parallel / cp this machine allows. */
        public double floorOverCriticalPath() {
            return predictedFloorMs / criticalPathMs;
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

        /**
         * Whether the machine allows the parallel goal at this size: the replay (the model's waits alone on as many
         * threads, no call made) is itself within it. Where it is not, no orchestrator could meet it here, and the
         * replay is the floor reported beside the figure; {@link #ownShare()} still judges vdpactl's part.
         */
        public boolean parallelGoalApplies() {
            return replay == null || replayOverCriticalPath() <= PARALLEL_GOAL;
        }

        /** Parallel within {@link #PARALLEL_GOAL} of the critical path, or the goal does not apply here. */
        public boolean parallelGoalMet() {
            return !parallelGoalApplies() || parallelOverCriticalPath() <= PARALLEL_GOAL;
        }

        /**
         * vdpactl's own share of the window: what the calls (the orchestrator, the fake kernel and its model, their
         * CPU and hand-offs) add to the downtime above the replay of the same waits, as a share of the critical path;
         * NaN when the replay was not measured.
         */
        public double ownShare() {
            return replay == null ? Double.NaN : (parallelMs - replay.medianMs()) / criticalPathMs;
        }

        /** {@link #ownShare()} within {@link #OWN_SHARE_GOAL} (an unmeasured share meets nothing). */
        public boolean ownShareGoalMet() {
            return ownShare() <= OWN_SHARE_GOAL;
        }

        /**
         * Whether the machine allows the serial goal at this size: serial over the least parallel could take here (the
         * replay) reaches it. serial / parallel ≥ 0.9 × devices asks parallel within 1.11 × cp where serial is devices ×
         * cp, so where the replay alone is above that, the goal is out of any orchestrator's reach on this machine.
         */
        public boolean serialGoalApplies() {
            return replay == null || serialMs / replay.medianMs() >= SERIAL_GOAL * devices;
        }

        /** serial / parallel ≥ {@link #SERIAL_GOAL} × devices, or the goal does not apply here. */
        public boolean serialGoalMet() {
            return !serialGoalApplies() || serialOverParallel() >= SERIAL_GOAL * devices;
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
    public static List<Row> run(List<Integer> sizes, int pairs, String preset, GuestMemoryLayout memory, WindowMode window,
            int repeat, int serialRepeat, Consumer<String> progress) {
        return run(sizes, pairs, preset, memory, window, repeat, serialRepeat, ResourceLimit.SYSTEMD_NOFILE, progress);
    }

    /**
     * As {@link #run(List, int, String, GuestMemoryLayout, WindowMode, int, int, Consumer)}, the simulated
     * hosts' processes started with RLIMIT_NOFILE {@code inheritedNofile} (the real process's, from the CLI).
     */
    public static List<Row> run(List<Integer> sizes, int pairs, String preset, GuestMemoryLayout memory, WindowMode window,
            int repeat, int serialRepeat, ResourceLimit inheritedNofile, Consumer<String> progress) {
        if (repeat < 1 || serialRepeat < 1) {
            throw new IllegalArgumentException("--repeat and --serial-repeat must be at least 1, got " + repeat + " and "
                    + serialRepeat);
        }
        Setup s = new Setup(pairs, preset, memory, window, inheritedNofile);
        int largest = sizes.stream().mapToInt(Integer::intValue).max().orElse(1);
        progress.accept("warming up (" + window.label() + " window)");
        for (int i = 0; i < 3; i++) {
            s.run(largest, Strategy.PARALLEL, new VirtualClock());
        }
        s.run(Math.min(largest, 4), Strategy.PARALLEL, RealClock.INSTANCE);
        s.run(Math.min(largest, 4), Strategy.PIPELINED, RealClock.INSTANCE);
        int cpus = Runtime.getRuntime().availableProcessors();
        List<Row> rows = new ArrayList<>();
        for (int n : sizes) {
            double loadBefore = loadAverage();
            Measured model = s.run(n, Strategy.PARALLEL, new VirtualClock());
            double cp = model.downtimeMs();
            double pipelinedCp = s.run(n, Strategy.PIPELINED, new VirtualClock()).downtimeMs();
            // the window's CPU from the median of three virtual-clock windows: one window's figure also holds whatever
            // the JIT compiled during it (up to 10 us per call at 4 devices in one run, 2 in the next)
            long[] cpu = {model.cpuNanos(), s.run(n, Strategy.PARALLEL, new VirtualClock()).cpuNanos(),
                s.run(n, Strategy.PARALLEL, new VirtualClock()).cpuNanos()};
            Arrays.sort(cpu);
            double cpuPerCallUs = cpu[1] / 1e3 / Math.max(1, model.windowCalls());
            double floor = model.floorMs(cpuPerCallUs * 1e3, cpus);
            progress.accept(n + " devices: model critical path " + fmt(cp) + " ms (pipelined " + fmt(pipelinedCp) + " ms); "
                    + model.windowCalls() + " calls, measured CPU " + fmt(cpuPerCallUs) + " us per call, predicted floor "
                    + fmt(floor) + " ms on " + cpus + " CPUs; load " + fmt(loadBefore));
            Spread parallel = measure(repeat, n, Strategy.PARALLEL, s);
            progress.accept(n + " devices: parallel " + describe(parallel) + "; load " + fmt(loadAverage()));
            Spread pipelined = measure(repeat, n, Strategy.PIPELINED, s);
            progress.accept(n + " devices: pipelined " + describe(pipelined) + "; load " + fmt(loadAverage()));
            Spread replay = replay(repeat, ModelReplay.of(model.timeline()));
            progress.accept(n + " devices: replay of the model's waits, no call made " + describe(replay) + "; load "
                    + fmt(loadAverage()));
            Spread serial = measure(serialRepeat, n, Strategy.SERIAL, s);
            double loadAfter = loadAverage();
            progress.accept(n + " devices: serial " + describe(serial) + "; load " + fmt(loadAfter));
            rows.add(new Row(n, 2 * pairs, cp, parallel.medianMs(), serial.medianMs(), pipelinedCp, parallel, pipelined, serial,
                    window.label(), model.windowCalls(), cpuPerCallUs, floor, loadBefore, loadAfter, replay));
        }
        return rows;
    }

    /** The 1-minute load average, or -1 where the system does not tell. */
    static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static Spread measure(int runs, int n, Strategy strategy, Setup s) {
        double[] v = new double[runs];
        for (int i = 0; i < runs; i++) {
            v[i] = s.run(n, strategy, RealClock.INSTANCE).downtimeMs();
        }
        return Spread.of(v);
    }

    /** The replay, measured as a rehearsal is: each run on fresh lane threads and a collected heap. */
    private static Spread replay(int runs, ModelReplay replay) {
        double[] v = new double[runs];
        for (int i = 0; i < runs; i++) {
            System.gc();
            v[i] = replay.run(RealClock.INSTANCE).downtimeNanos() / 1e6;
        }
        return Spread.of(v);
    }

    private static String describe(Spread s) {
        return fmt(s.medianMs()) + " ms (min " + fmt(s.minMs()) + ", max " + fmt(s.maxMs()) + ", " + s.runs()
                + (s.runs() == 1 ? " run)" : " runs)");
    }

    private static String fmt(double ms) {
        return String.format(Locale.ROOT, "%.2f", ms);
    }

    /** What every run of one invocation shares. */
    private record Setup(int pairs, String preset, GuestMemoryLayout memory, WindowMode window, ResourceLimit nofile) {
        Measured run(int n, Strategy strategy, Clock clock) {
            try (SimulatedHost h = SimulatedHost.mlx5(n, pairs, preset, clock, List.of(), nofile)) {
                RehearsalPlan plan = RehearsalPlan.builder(h.devices()).strategy(strategy).memory(memory).window(window).build();
                Rehearsal rehearsal = h.rehearsal();
                long[] cpu = new long[1];
                rehearsal.listener(new RehearsalListener() {
                    @Override
                    public void setUpDone(int devices) {
                        if (!clock.isVirtual()) {
                            // the set-up's garbage is not the window's: the window starts on a collected heap, so a
                            // young collection (15-60 ms with 256 lane threads to scan) lands in it only if the
                            // window itself fills the young generation
                            System.gc();
                        }
                        cpu[0] = processCpuNanos();
                    }

                    @Override
                    public void windowDone(int index) {
                        cpu[0] = processCpuNanos() - cpu[0];
                    }
                });
                RehearsalResult r = rehearsal.run(plan);
                if (!r.completed()) {
                    throw new IllegalStateException("bench rehearsal of " + n + " devices failed: " + r.failure().summary());
                }
                return Measured.of(r.lastIteration(), cpu[0]);
            }
        }
    }

    /** CPU time of this process so far (every live thread), to the nanosecond where Linux tells it. */
    private static long processCpuNanos() {
        return ProcessCpuClock.SYSTEM.nanos();
    }

    /**
     * One run: its downtime, the process CPU its window took, and per downtime phase the calls and
     * the phase's time (on the virtual clock: the model's).
     */
    record Measured(double downtimeMs, long cpuNanos, int windowCalls, Map<Phase, Integer> calls, Map<Phase, Long> phaseNanos,
            Timeline timeline) {
        static Measured of(Timeline t, long cpuNanos) {
            Map<Phase, Integer> calls = new EnumMap<>(Phase.class);
            int total = 0;
            for (Span s : t.windowSpans()) {
                calls.merge(s.phase(), 1, Integer::sum);
                total++;
            }
            Map<Phase, Long> nanos = new EnumMap<>(Phase.class);
            for (PhaseSummary p : t.phases()) {
                if (t.inDowntime(p.phase())) {
                    nanos.put(p.phase(), p.wallNanos());
                }
            }
            return new Measured(t.downtimeNanos() / 1e6, cpuNanos, total, calls, nanos, t);
        }

        /**
         * The least a parallel window can take: each downtime phase (they are separated by a barrier)
         * at least its model time, and at least its calls' CPU spread over {@code cpus}.
         */
        double floorMs(double cpuNanosPerCall, int cpus) {
            double floor = 0;
            for (Map.Entry<Phase, Long> e : phaseNanos.entrySet()) {
                double cpuMs = calls.getOrDefault(e.getKey(), 0) * cpuNanosPerCall / cpus / 1e6;
                floor += Math.max(e.getValue() / 1e6, cpuMs);
            }
            return floor;
        }
    }
}
