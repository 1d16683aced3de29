package org.vdpactl.fake.mlx5;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.vdpactl.sim.HeldOutPrediction;
import org.vdpactl.sim.HeldOutPrediction.Range;
import org.vdpactl.sim.UpstreamScenarios;
import org.vdpactl.sim.UpstreamScenarios.VmmResiduals;

/**
 * The routine behind {@link HeldOutPrediction#LM_DOWNTIME_2}: refits the model on the calibration set
 * from every sample of the undetermined priors ({@link Mlx5Prior#samples()}), rejects a fit whose
 * window #1 needs a negative VMM residual, and predicts live-migration downtime #2 with each admitted
 * fit. Reads no held-out figure: it predicts, it does not score.
 */
final class Mlx5PredictionInterval {
    /**
     * One fit's prediction.
     *
     * @param priors   the sample it was fitted from
     * @param fit      the fit
     * @param beforeMs #2 on {@code mlx5-pre612}
     * @param afterMs  #2 on {@code mlx5-612}
     */
    record Prediction(Mlx5Prior.Sample priors, Mlx5Calibration.Fit fit, double beforeMs, double afterMs) {
        double changeMs() {
            return beforeMs - afterMs;
        }

        /** The calibration figures admit the sample: window #1's VMM work is not negative. */
        boolean admitted() {
            return fit.vmmResidual1Ms() >= 0;
        }
    }

    private Mlx5PredictionInterval() {
    }

    static List<Prediction> predictions() {
        List<Prediction> out = new ArrayList<>();
        for (Mlx5Prior.Sample s : Mlx5Prior.samples()) {
            Mlx5Calibration.Fit fit = Mlx5Calibration.fit(s);
            out.add(new Prediction(s, fit, window2(UpstreamScenarios.PRE612, fit.params()), window2(UpstreamScenarios.V612, fit.params())));
        }
        return out;
    }

    static HeldOutPrediction interval(List<Prediction> all) {
        List<Prediction> p = all.stream().filter(Prediction::admitted).toList();
        return new HeldOutPrediction(range(p.stream().mapToDouble(Prediction::beforeMs).toArray()),
                range(p.stream().mapToDouble(Prediction::afterMs).toArray()),
                range(p.stream().mapToDouble(Prediction::changeMs).toArray()), p.size(), all.size() - p.size());
    }

    private static double window2(String preset, Mlx5Params p) {
        return UpstreamScenarios.window2(Mlx5Presets.preset(preset).withParams(p), UpstreamScenarios.LM_DEVICES, VmmResiduals.NONE)
                .totalMs();
    }

    private static Range range(double[] v) {
        return new Range(Arrays.stream(v).min().orElseThrow(), Arrays.stream(v).max().orElseThrow());
    }

    /** Prints every fit's prediction and the interval (to copy into {@link HeldOutPrediction}). */
    public static void main(String[] args) {
        List<Prediction> p = predictions();
        for (Prediction x : p) {
            System.out.printf(Locale.ROOT, "share %.2f host %.2f Fmkey %d sweeps %d: before %.1f after %.1f change %.1f  fitted %s%n",
                    x.priors().deletionShare(), x.priors().params().hostUnmapPerMttNs()
                            / (x.priors().params().hostUnmapPerMttNs() + x.priors().params().destroyMkeyPerMttNs()),
                    x.priors().params().fwConcurrencyMkey(), x.fit().sweeps(), x.beforeMs(), x.afterMs(), x.changeMs(), "r1 " + x.fit().vmmResidual1Ms());
        }
        System.out.println(interval(p));
        System.out.println("point: " + p.get(0).fit().fitted() + " r1 " + p.get(0).fit().vmmResidual1Ms());
    }
}
