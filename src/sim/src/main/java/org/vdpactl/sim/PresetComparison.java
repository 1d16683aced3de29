package org.vdpactl.sim;

import static org.vdpactl.sim.UpstreamScenarios.LM_DEVICES;
import static org.vdpactl.sim.UpstreamScenarios.LM_MEMORY;
import static org.vdpactl.sim.UpstreamScenarios.PAIRS;
import static org.vdpactl.sim.UpstreamScenarios.PRE612;
import static org.vdpactl.sim.UpstreamScenarios.V611;
import static org.vdpactl.sim.UpstreamScenarios.V612;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.vdpactl.fake.device.DeviceCounters;
import org.vdpactl.fake.mlx5.Mlx5PublishedFigure;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.orchestra.Phase;
import org.vdpactl.orchestra.PhaseSummary;
import org.vdpactl.orchestra.RehearsalListener;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Strategy;
import org.vdpactl.orchestra.Timeline;
import org.vdpactl.orchestra.WindowMode;
import org.vdpactl.time.VirtualClock;

/**
 * {@code rehearse --compare BEFORE,AFTER}: the same rehearsals on two mlx5 latency presets, each on
 * a private fake kernel with a virtual clock (deterministic, simulated). Two parts:
 * <ul>
 *   <li>the upstream configurations of mlx5-model.md §4.5 — suspend and resume of one device with
 *       32 VQs, VQ creation + resume of 16 VQ pairs, and the live-migration windows #1 and #2 of
 *       4 devices × 32 VQs with 256 GiB mapped at 4 KiB granularity — next to the figures the
 *       upstream cover letters published;</li>
 *   <li>the user's own rehearsal (devices, strategy, memory from the command line), phase by phase.</li>
 * </ul>
 * Every figure is what the rehearsal measured on the modelled devices; the published figures are
 * only printed next to them. Each upstream row is labelled by the use of its published figure
 * ({@link Mlx5PublishedFigure}): "fitted" when the model's parameters were fitted to it (the
 * calibration set), "predicted" when it was held out. LM window #1 also contains VMM work outside
 * the driver: it is added as a separate, labelled line (fitted on the calibration figures only),
 * never folded in silently; held-out window #2 gets no residual.
 */
public final class PresetComparison {
    /**
     * A figure from the cover letters (mlx5-model.md §4.5), for display next to the simulated one.
     *
     * @param before the "before" figure (ms)
     * @param after  the "after" figure (ms)
     * @param source where it was published
     * @param use    calibration (the row is fitted) or held out (the row is predicted)
     */
    public record Published(double before, double after, String source, Mlx5PublishedFigure.Use use) {
        static Published of(Mlx5PublishedFigure.Scenario scenario) {
            List<Mlx5PublishedFigure> f = Mlx5PublishedFigure.HELD_OUT_SCENARIOS.contains(scenario)
                    ? HeldOutFigures.forScoring(scenario) : Mlx5PublishedFigure.of(scenario);
            if (f.get(0).use() != f.get(1).use()) {
                throw new IllegalStateException(scenario + ": before and after figures must share their use");
            }
            return new Published(f.get(0).ms(), f.get(1).ms(), f.get(0).source(), f.get(0).use());
        }

        /** "fitted" or "predicted". */
        public String label() {
            return use.label();
        }

        /** True when the row was held out of the fit. */
        public boolean predicted() {
            return use == Mlx5PublishedFigure.Use.HELD_OUT;
        }
    }

    /**
     * One simulated figure.
     *
     * @param driverMs   what the rehearsal measured on the modelled devices
     * @param residualMs VMM work fitted on the calibration figures, added to LM window #1 (0 elsewhere)
     * @param commands   the firmware commands behind it, as the fake counted them
     */
    public record Figure(double driverMs, double residualMs, String commands) {
        public double totalMs() {
            return driverMs + residualMs;
        }
    }

    /**
     * One row of the upstream table.
     *
     * @param scenario     what is measured
     * @param beforePreset preset of the "before" column
     * @param afterPreset  preset of the "after" column
     * @param before       simulated before
     * @param after        simulated after
     * @param published    the cover letter's figures, or null when the presets are not the published pair
     * @param note         remark (e.g. the preset the after-figure was published for)
     * @param interval     a predicted row: the prediction over the undetermined priors (null otherwise)
     */
    public record Row(String scenario, String beforePreset, String afterPreset, Figure before, Figure after, Published published,
            String note, HeldOutPrediction interval) {
        Row(String scenario, String beforePreset, String afterPreset, Figure before, Figure after, Published published, String note) {
            this(scenario, beforePreset, afterPreset, before, after, published, note,
                    published != null && published.predicted() ? HeldOutPrediction.LM_DOWNTIME_2 : null);
        }

        /**
         * Relative errors of the interval's ends against the published figures: before, after and change
         * (each as {low, high}); the goal is judged on the whole interval.
         */
        public double[][] intervalErrors() {
            double pubChange = published.before() - published.after();
            return new double[][] {
                {(interval.beforeMs().low() - published.before()) / published.before(),
                    (interval.beforeMs().high() - published.before()) / published.before()},
                {(interval.afterMs().low() - published.after()) / published.after(),
                    (interval.afterMs().high() - published.after()) / published.after()},
                {(interval.changeMs().low() - pubChange) / pubChange, (interval.changeMs().high() - pubChange) / pubChange}};
        }

        /** before / after. */
        public double speedup() {
            return before.totalMs() / after.totalMs();
        }

        /** "fitted", "predicted", or "-" when the presets are not the published pair. */
        public String label() {
            return published == null ? "-" : published.label();
        }

        /** Signed relative error of the simulated before-figure against the published one. */
        public double beforeError() {
            return (before.totalMs() - published.before()) / published.before();
        }

        /** Signed relative error of the simulated after-figure against the published one. */
        public double afterError() {
            return (after.totalMs() - published.after()) / published.after();
        }

        /** Signed relative error of the simulated change (before - after) against the published change. */
        public double changeError() {
            double pub = published.before() - published.after();
            return ((before.totalMs() - after.totalMs()) - pub) / pub;
        }
    }

    /**
     * One phase of the user's rehearsal on both presets.
     *
     * @param phase       the phase (null for the downtime row)
     * @param beforeMs    wall time on the before preset
     * @param afterMs     wall time on the after preset
     * @param preparation the phase is the destination's preparation, not downtime
     */
    public record PhaseRow(Phase phase, double beforeMs, double afterMs, boolean preparation) {
    }

    /**
     * The whole comparison.
     *
     * @param before      before preset
     * @param after       after preset
     * @param upstream    the §4.5 configurations
     * @param plan        the user's rehearsal as run on both presets
     * @param phases      its phases and downtime (last row, phase null)
     */
    public record Result(String before, String after, List<Row> upstream, RehearsalPlan plan, List<PhaseRow> phases) {
    }

    private PresetComparison() {
    }

    /** Parses "mlx5-pre612,mlx5-612". */
    public static String[] parsePresets(String spec) {
        String[] p = spec.split(",");
        if (p.length != 2 || p[0].isBlank() || p[1].isBlank()) {
            throw new IllegalArgumentException("--compare takes two presets separated by a comma, e.g. mlx5-pre612,mlx5-612");
        }
        return new String[] {p[0].trim(), p[1].trim()};
    }

    /**
     * Runs both parts.
     *
     * @param userPlan builds the user's plan for a host's devices
     * @param devices  devices of the user's rehearsal
     */
    public static Result run(String before, String after, int devices, Function<List<DeviceTarget>, RehearsalPlan> userPlan) {
        List<Row> rows = upstream(before, after);
        Timeline b = runOn(before, devices, userPlan).lastIteration();
        Timeline a = runOn(after, devices, userPlan).lastIteration();
        List<PhaseRow> phases = new ArrayList<>();
        for (PhaseSummary p : b.phases()) {
            PhaseSummary q = a.phase(p.phase());
            phases.add(new PhaseRow(p.phase(), ms(p.wallNanos()), q == null ? 0 : ms(q.wallNanos()), !b.inDowntime(p.phase())));
        }
        phases.add(new PhaseRow(null, ms(b.downtimeNanos()), ms(a.downtimeNanos()), false));
        RehearsalPlan shown;
        try (SimulatedHost h = host(before, devices)) {
            shown = userPlan.apply(h.devices());
        }
        return new Result(before, after, rows, shown, phases);
    }

    private static RehearsalResult runOn(String preset, int devices, Function<List<DeviceTarget>, RehearsalPlan> plan) {
        try (SimulatedHost h = host(preset, devices)) {
            RehearsalResult r = h.rehearsal().run(plan.apply(h.devices()));
            if (!r.completed()) {
                throw new IllegalStateException("the rehearsal on " + preset + " failed: " + r.failure().summary());
            }
            return r;
        }
    }

    /** The §4.5 configurations on both presets. */
    public static List<Row> upstream(String before, String after) {
        boolean publishedPair = before.equals(PRE612) && after.equals(V612);
        List<Row> rows = new ArrayList<>();
        Scenario sb = suspendResume(before);
        Scenario sa = suspendResume(after);
        rows.add(new Row("suspend, 1 device x 32 VQs", before, after, sb.figure(Phase.SUSPEND, "suspend"),
                sa.figure(Phase.SUSPEND, "suspend"), publishedPair ? Published.of(Mlx5PublishedFigure.Scenario.SUSPEND) : null,
                null));
        rows.add(new Row("resume, 1 device x 32 VQs", before, after, sb.figure(Phase.RESUME, "resume"),
                sa.figure(Phase.RESUME, "resume"), publishedPair ? Published.of(Mlx5PublishedFigure.Scenario.RESUME) : null,
                null));
        String vqAfter = publishedPair ? V611 : after;
        Figure vb = vqCreation(before);
        Figure va = vqCreation(vqAfter);
        rows.add(new Row("VQ creation + resume, 16 VQ pairs (DRIVER_OK + CVQ MQ)", before, vqAfter, vb, va,
                publishedPair ? Published.of(Mlx5PublishedFigure.Scenario.VQ_CREATION) : null,
                publishedPair ? "published after-figure is v6.11: compared with " + V611 + "; " + V612 + " gives "
                        + String.format(Locale.ROOT, "%.2f ms", vqCreation(V612).totalMs()) : null));
        rows.add(new Row("LM downtime #1: SVQ switch of one device (4 devices x 32 VQs, 256 GiB at 4 KiB)", before, after,
                window1(before), window1(after),
                publishedPair ? Published.of(Mlx5PublishedFigure.Scenario.LM_DOWNTIME_1) : null, null));
        rows.add(new Row("LM downtime #2: stop-and-copy of 4 devices (4 x 32 VQs, 256 GiB at 4 KiB)", before, after,
                window2(before), window2(after),
                publishedPair ? Published.of(Mlx5PublishedFigure.Scenario.LM_DOWNTIME_2) : null, null));
        return rows;
    }

    private static SimulatedHost host(String preset, int devices) {
        return SimulatedHost.mlx5(devices, PAIRS, preset, new VirtualClock(), List.of());
    }

    /** A rehearsal with the firmware counters read around the window. */
    private record Scenario(Timeline timeline, Map<String, long[]> commands, int devices) {
        Figure figure(Phase phase, String op) {
            PhaseSummary p = timeline.phase(phase);
            return new Figure(p == null ? 0 : ms(p.wallNanos()), 0, commands(op));
        }

        String commands(String op) {
            long[] c = commands.getOrDefault(op, new long[4]);
            if (c[0] == 0) {
                return "";
            }
            long sync = c[1] / c[0];
            long batches = c[2] / c[0];
            long async = c[3] / c[0];
            StringBuilder sb = new StringBuilder(op).append(": ");
            if (batches > 0) {
                sb.append(batches).append(batches == 1 ? " batch / " : " batches / ").append(async).append(" cmds");
                if (sync > 0) {
                    sb.append(" + ");
                }
            }
            if (sync > 0 || batches == 0) {
                sb.append(sync).append(" sync");
            }
            return sb.toString();
        }
    }

    private static Scenario scenario(String preset, int devices, Function<List<DeviceTarget>, RehearsalPlan> plan) {
        try (SimulatedHost h = host(preset, devices)) {
            Map<String, long[]> before = new HashMap<>();
            Map<String, long[]> window = new HashMap<>();
            RehearsalListener counters = new RehearsalListener() {
                @Override
                public void setUpDone(int n) {
                    sum(h, before);
                }

                @Override
                public void windowDone(int index) {
                    sum(h, window);
                    window.forEach((op, c) -> {
                        long[] b = before.getOrDefault(op, new long[4]);
                        for (int i = 0; i < c.length; i++) {
                            c[i] -= b[i];
                        }
                    });
                }
            };
            RehearsalResult r = h.rehearsal().listener(counters).run(plan.apply(h.devices()));
            if (!r.completed()) {
                throw new IllegalStateException("the " + preset + " scenario failed: " + r.failure().summary());
            }
            return new Scenario(r.lastIteration(), window, devices);
        }
    }

    /** Per op over all devices: calls, sync commands, batches, async commands. */
    private static void sum(SimulatedHost h, Map<String, long[]> into) {
        into.clear();
        for (DeviceTarget t : h.devices()) {
            DeviceCounters.Snapshot s = h.device(t.name()).counters();
            s.ops().forEach((op, st) -> {
                long[] c = into.computeIfAbsent(op, k -> new long[4]);
                c[0] += st.calls() - st.failures();
                c[1] += st.syncCommands();
                c[2] += st.asyncBatches();
                c[3] += st.asyncCommands();
            });
        }
    }

    private static RehearsalPlan.Builder oneDevice(List<DeviceTarget> d) {
        return RehearsalPlan.builder(d.subList(0, 1)).memory(LM_MEMORY).strategy(Strategy.SERIAL);
    }

    /** §4.5.1-2: a running device with 16 active pairs, suspended and resumed in place. */
    private static Scenario suspendResume(String preset) {
        return scenario(preset, 1, d -> oneDevice(d).phases(EnumSet.of(Phase.SUSPEND, Phase.RESUME)).build());
    }

    /** §4.5.4: DRIVER_OK and the CVQ MQ(16) of a device reset after running (its memory kept: IOTLB_PERSIST). */
    private static Figure vqCreation(String preset) {
        Set<Phase> phases = EnumSet.of(Phase.RESET, Phase.CONFIGURE, Phase.DRIVER_OK, Phase.CVQ_MQ, Phase.RESUME);
        Scenario s = scenario(preset, 1, d -> oneDevice(d).premap(true).phases(phases).build());
        Figure driverOk = s.figure(Phase.DRIVER_OK, "set_status");
        Figure mq = s.figure(Phase.CVQ_MQ, "change_num_qps");
        return new Figure(driverOk.driverMs() + mq.driverMs(), 0, join(driverOk.commands(), mq.commands()));
    }

    /**
     * §4.5.6 #1: each device suspended, saved, reset, re-mapped, restarted; serial as QEMU; the window of
     * one device. The SVQ switch restarts the source in place, so its reset is inside the window.
     */
    private static Figure window1(String preset) {
        Scenario s = scenario(preset, LM_DEVICES, d -> RehearsalPlan.builder(d).memory(LM_MEMORY).strategy(Strategy.SERIAL)
                .window(WindowMode.IN_PLACE).build());
        double perDevice = ms(s.timeline().downtimeNanos()) / LM_DEVICES;
        return new Figure(perDevice, UpstreamScenarios.VmmResiduals.FITTED.window1Ms(), join(s.commands("suspend"), s.commands("set_map")));
    }

    /** §4.5.6 #2: every device suspended, saved and unmapped, one after another; the whole window. */
    private static Figure window2(String preset) {
        Scenario s = scenario(preset, LM_DEVICES, d -> RehearsalPlan.builder(d).memory(LM_MEMORY).strategy(Strategy.SERIAL)
                .phases(EnumSet.of(Phase.SUSPEND, Phase.SAVE_STATE, Phase.UNMAP)).build());
        return new Figure(ms(s.timeline().downtimeNanos()), LM_DEVICES * UpstreamScenarios.VmmResiduals.FITTED.window2PerDeviceMs(),
                join(s.commands("suspend"), s.commands("set_map")));
    }

    private static String join(String a, String b) {
        return a.isEmpty() ? b : b.isEmpty() ? a : a + "; " + b;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
