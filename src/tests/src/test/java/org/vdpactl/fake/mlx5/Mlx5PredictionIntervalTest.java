package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.mlx5.Mlx5PublishedFigure.Scenario;
import org.vdpactl.sim.HeldOutFigures;
import org.vdpactl.sim.HeldOutPrediction;
import org.vdpactl.sim.UpstreamScenarios;
import org.vdpactl.sim.UpstreamScenarios.VmmResiduals;

/**
 * The committed held-out prediction ({@link HeldOutPrediction#LM_DOWNTIME_2}) is what the fits over
 * the undetermined priors give, recomputed here with the held-out figures sealed: a held-out figure
 * read anywhere in the priors, the fit or the prediction throws, and one typed into them moves the
 * interval away from the committed one (or, for the priors' and the fit's sources, is found by
 * {@code HeldOutFiguresTest}).
 */
class Mlx5PredictionIntervalTest {
    private static List<Mlx5PredictionInterval.Prediction> predictions;

    @BeforeAll
    static void refitOverThePriors() {
        predictions = HeldOutFigures.sealed(Mlx5PredictionInterval::predictions);
    }

    @Test
    void committedIntervalIsTheRecomputedOne() {
        HeldOutPrediction fitted = Mlx5PredictionInterval.interval(predictions);
        HeldOutPrediction committed = HeldOutPrediction.LM_DOWNTIME_2;
        assertEquals(committed.fits(), fitted.fits(), "admitted fits");
        assertEquals(committed.rejected(), fitted.rejected(), "rejected fits");
        assertRange("before", committed.beforeMs(), fitted.beforeMs());
        assertRange("after", committed.afterMs(), fitted.afterMs());
        assertRange("change", committed.changeMs(), fitted.changeMs());
    }

    @Test
    void everyFitReproducesTheCalibrationFiguresAndTheCommittedModelIsThePoint() {
        for (Mlx5PredictionInterval.Prediction p : predictions) {
            Mlx5Params q = p.fit().params();
            String what = p.priors().toString();
            assertClose(Scenario.RESUME, "mlx5-pre612", UpstreamScenarios.resume(preset("mlx5-pre612", q)).driverMs(), what);
            assertClose(Scenario.SUSPEND, "mlx5-612", UpstreamScenarios.suspend(preset("mlx5-612", q)).driverMs(), what);
            assertClose(Scenario.VQ_CREATION, "mlx5-pre612", UpstreamScenarios.driverOkMq(preset("mlx5-pre612", q)).driverMs(), what);
            VmmResiduals r = new VmmResiduals(p.fit().vmmResidual1Ms(), 0);
            if (p.admitted()) {
                assertClose(Scenario.LM_DOWNTIME_1, "mlx5-pre612", UpstreamScenarios.window1(preset("mlx5-pre612", q), r).totalMs(), what);
                assertClose(Scenario.LM_DOWNTIME_1, "mlx5-612", UpstreamScenarios.window1(preset("mlx5-612", q), r).totalMs(), what);
            }
        }
        assertEquals(Mlx5Prior.pointSample(), predictions.get(0).priors(), "the first sample is the point");
        assertTrue(predictions.get(0).admitted(), "the calibration figures admit the committed model's priors");
    }

    /** The rounding of the committed values is 0.1 ms; the fits converge far closer. */
    private static void assertRange(String what, HeldOutPrediction.Range committed, HeldOutPrediction.Range fitted) {
        assertEquals(committed.low(), fitted.low(), 0.051, what + " low: committed " + committed + ", recomputed " + fitted);
        assertEquals(committed.high(), fitted.high(), 0.051, what + " high: committed " + committed + ", recomputed " + fitted);
    }

    private static void assertClose(Scenario s, String preset, double model, String priors) {
        double published = Mlx5Calibration.target(s, preset);
        assertTrue(Math.abs(model - published) <= published * 1e-4, s + " on " + preset + " from " + priors + ": model " + model
                + " vs calibration figure " + published);
    }

    private static Mlx5Preset preset(String name, Mlx5Params p) {
        return Mlx5Presets.preset(name).withParams(p);
    }
}
