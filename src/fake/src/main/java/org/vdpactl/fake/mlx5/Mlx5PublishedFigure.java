package org.vdpactl.fake.mlx5;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The ten figures the upstream mlx5_vdpa cover letters published (docs/spec/mlx5-model.md §4.5),
 * and which of them the model may be fitted to.
 *
 * <p>The split: the single-device figures and live-migration downtime #1 are the
 * {@link Use#CALIBRATION calibration set}; live-migration downtime #2 (stop-and-copy of four
 * devices) is {@link Use#HELD_OUT held out}. Why this split: the calibration figures each isolate
 * one kind of driver work (VQ object commands, the notifier, VQ creation, MKEY work), so together
 * they fix the parameters; downtime #2 is a different sequence (no reset, no map build, four devices
 * in a row) built from the same parameters, so it tests whether the model predicts. Nothing fitted
 * may read a held-out figure: they are not here but in {@code org.vdpactl.sim.HeldOutFigures}, which
 * only the comparison's scoring can read (and not while a fit or its priors are computed).
 *
 * @param scenario  which upstream configuration
 * @param preset    the preset the figure is compared with
 * @param ms        the published value
 * @param use       calibration or held out
 * @param source    the cover letter it comes from
 */
public record Mlx5PublishedFigure(Scenario scenario, String preset, double ms, Use use, String source) {

    /** Calibration figures may be fitted to; held-out figures may only be predicted. */
    public enum Use {
        CALIBRATION("fitted"), HELD_OUT("predicted");

        private final String label;

        Use(String label) {
            this.label = label;
        }

        /** How a row compared with a figure of this use is labelled: "fitted" or "predicted". */
        public String label() {
            return label;
        }
    }

    /** The upstream configurations (§4.5.1-§4.5.6). */
    public enum Scenario {
        SUSPEND, RESUME, VQ_CREATION, LM_DOWNTIME_1, LM_DOWNTIME_2
    }

    // the cover letters with their dates (docs/spec/mlx5-model.md §7 gives their message ids)
    private static final String SUSPEND_RESUME = "cover letter \"vdpa/mlx5: Parallelize device suspend/resume\", D. Tatulea, 2 Aug 2024";
    private static final String PRECREATE = "cover letter \"vdpa/mlx5: Pre-create HW VQs to reduce LM downtime\" v3, D. Tatulea, "
            + "8 Jul 2024 (v6.11, ConnectX-6 Dx)";
    /** The MKEY series' cover letter, whose downtime table holds both LM windows. */
    public static final String MKEY = "cover letter \"vdpa/mlx5: Optimize MKEY operations\", D. Tatulea, 21 Aug 2024 (v2 30 Aug)";

    /** The eight calibration figures, before-figure first for each scenario (the two held-out ones are elsewhere). */
    public static final List<Mlx5PublishedFigure> ALL = List.of(
            new Mlx5PublishedFigure(Scenario.SUSPEND, "mlx5-pre612", 37, Use.CALIBRATION, SUSPEND_RESUME),
            new Mlx5PublishedFigure(Scenario.SUSPEND, "mlx5-612", 2.5, Use.CALIBRATION, SUSPEND_RESUME),
            new Mlx5PublishedFigure(Scenario.RESUME, "mlx5-pre612", 16, Use.CALIBRATION, SUSPEND_RESUME),
            new Mlx5PublishedFigure(Scenario.RESUME, "mlx5-612", 5, Use.CALIBRATION, SUSPEND_RESUME),
            new Mlx5PublishedFigure(Scenario.VQ_CREATION, "mlx5-pre612", 370, Use.CALIBRATION, PRECREATE),
            new Mlx5PublishedFigure(Scenario.VQ_CREATION, "mlx5-611", 60, Use.CALIBRATION, PRECREATE),
            new Mlx5PublishedFigure(Scenario.LM_DOWNTIME_1, "mlx5-pre612", 3140, Use.CALIBRATION, MKEY + " (Downtime #1)"),
            new Mlx5PublishedFigure(Scenario.LM_DOWNTIME_1, "mlx5-612", 1014, Use.CALIBRATION, MKEY + " (Downtime #1)"));

    /** The scenarios whose figures are held out: not in {@link #ALL}. */
    public static final Set<Scenario> HELD_OUT_SCENARIOS = EnumSet.of(Scenario.LM_DOWNTIME_2);

    /** The figures the model may be fitted to. */
    public static List<Mlx5PublishedFigure> calibrationSet() {
        return ALL;
    }

    /** The figure of {@code scenario} on {@code preset}. */
    public static Mlx5PublishedFigure of(Scenario scenario, String preset) {
        refuseHeldOut(scenario);
        return ALL.stream().filter(f -> f.scenario() == scenario && f.preset().equals(preset)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no published figure for " + scenario + " on " + preset
                        + "; known: " + Arrays.toString(Scenario.values())));
    }

    /** The published before and after figures of a scenario. */
    public static List<Mlx5PublishedFigure> of(Scenario scenario) {
        refuseHeldOut(scenario);
        return ALL.stream().filter(f -> f.scenario() == scenario).toList();
    }

    private static void refuseHeldOut(Scenario scenario) {
        if (HELD_OUT_SCENARIOS.contains(scenario)) {
            throw new IllegalStateException(scenario + " is held out: only the comparison's scoring may read it");
        }
    }
}
