package org.vdpactl.fake.mlx5;

import java.util.Arrays;
import java.util.List;

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
 * may read a held-out figure.
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

    private static final String SUSPEND_RESUME = "vdpa/mlx5: Parallelize device suspend/resume";
    private static final String PRECREATE = "vdpa/mlx5: Pre-create HW VQs to reduce LM downtime (v6.11, ConnectX-6 Dx)";
    private static final String MKEY = "vdpa/mlx5: Optimize MKEY operations";

    /** All ten, before-figure first for each scenario. */
    public static final List<Mlx5PublishedFigure> ALL = List.of(
            new Mlx5PublishedFigure(Scenario.SUSPEND, "mlx5-pre612", 37, Use.CALIBRATION, SUSPEND_RESUME),
            new Mlx5PublishedFigure(Scenario.SUSPEND, "mlx5-612", 2.5, Use.CALIBRATION, SUSPEND_RESUME),
            new Mlx5PublishedFigure(Scenario.RESUME, "mlx5-pre612", 16, Use.CALIBRATION, SUSPEND_RESUME),
            new Mlx5PublishedFigure(Scenario.RESUME, "mlx5-612", 5, Use.CALIBRATION, SUSPEND_RESUME),
            new Mlx5PublishedFigure(Scenario.VQ_CREATION, "mlx5-pre612", 370, Use.CALIBRATION, PRECREATE),
            new Mlx5PublishedFigure(Scenario.VQ_CREATION, "mlx5-611", 60, Use.CALIBRATION, PRECREATE),
            new Mlx5PublishedFigure(Scenario.LM_DOWNTIME_1, "mlx5-pre612", 3140, Use.CALIBRATION, MKEY + " (Downtime #1)"),
            new Mlx5PublishedFigure(Scenario.LM_DOWNTIME_1, "mlx5-612", 1014, Use.CALIBRATION, MKEY + " (Downtime #1)"),
            new Mlx5PublishedFigure(Scenario.LM_DOWNTIME_2, "mlx5-pre612", 3630, Use.HELD_OUT, MKEY + " (Downtime #2)"),
            new Mlx5PublishedFigure(Scenario.LM_DOWNTIME_2, "mlx5-612", 1253, Use.HELD_OUT, MKEY + " (Downtime #2)"));

    /** The figures the model may be fitted to. */
    public static List<Mlx5PublishedFigure> calibrationSet() {
        return ALL.stream().filter(f -> f.use() == Use.CALIBRATION).toList();
    }

    /** The figure of {@code scenario} on {@code preset}. */
    public static Mlx5PublishedFigure of(Scenario scenario, String preset) {
        return ALL.stream().filter(f -> f.scenario() == scenario && f.preset().equals(preset)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no published figure for " + scenario + " on " + preset
                        + "; known: " + Arrays.toString(Scenario.values())));
    }

    /** The published before and after figures of a scenario. */
    public static List<Mlx5PublishedFigure> of(Scenario scenario) {
        return ALL.stream().filter(f -> f.scenario() == scenario).toList();
    }
}
