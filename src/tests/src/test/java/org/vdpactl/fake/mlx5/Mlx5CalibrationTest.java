package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.mlx5.Mlx5PublishedFigure.Scenario;
import org.vdpactl.sim.HeldOutFigures;
import org.vdpactl.sim.UpstreamScenarios.VmmResiduals;
import org.vdpactl.sim.UpstreamScenarios;

/**
 * The committed model is the fit of the calibration set, not hand-tuned: re-runs
 * {@link Mlx5Calibration} from the spec's priors and compares with {@link Mlx5Params#DEFAULT} and
 * {@link VmmResiduals#FITTED}.
 */
class Mlx5CalibrationTest {
    private static Mlx5Calibration.Fit fit;

    @BeforeAll
    static void runTheFit() {
        fit = HeldOutFigures.sealed(() -> Mlx5Calibration.fit(Mlx5Prior.pointSample()));
    }

    /** Half a unit in the third significant digit of {@code v} (the committed precision), plus float noise. */
    private static double roundingOf(double v) {
        return 0.5 * Math.pow(10, Math.floor(Math.log10(Math.abs(v))) - 2) * 1.0001;
    }

    @Test
    void committedParametersAreTheFittedOnesWithinRounding() {
        assertTrue(fit.sweeps() < 30, "the coordinate search converged");
        fit.fitted().forEach((name, value) -> assertEquals(value, Mlx5Params.DEFAULT.get(name), roundingOf(value),
                name + ": committed " + Mlx5Params.DEFAULT.get(name) + ", fitted " + value));
    }

    @Test
    void everyOtherParameterIsTheSpecsPrior() {
        for (String name : Mlx5Params.names()) {
            if (!fit.fitted().containsKey(name)) {
                assertEquals(Mlx5Prior.pointSample().params().get(name), Mlx5Params.DEFAULT.get(name), 0,
                        name + " is not identifiable from the calibration set: it must stay at its prior");
            }
        }
    }

    @Test
    void committedResidualIsTheFittedOne() {
        assertEquals(fit.vmmResidual1Ms(), VmmResiduals.FITTED.window1Ms(), roundingOf(fit.vmmResidual1Ms()));
        assertEquals(0, VmmResiduals.FITTED.window2PerDeviceMs(), "window #2 is held out: no residual may be fitted on it");
    }

    @Test
    void theFitReproducesEveryCalibrationFigure() {
        Mlx5Params p = fit.params();
        // resume, suspend and DRIVER_OK + MQ of one device, LM #1 with its residual
        assertClose(Scenario.RESUME, "mlx5-pre612", UpstreamScenarios.resume(preset("mlx5-pre612", p)).driverMs(), 1e-6);
        assertClose(Scenario.SUSPEND, "mlx5-612", UpstreamScenarios.suspend(preset("mlx5-612", p)).driverMs(), 1e-6);
        assertClose(Scenario.SUSPEND, "mlx5-pre612", UpstreamScenarios.suspend(preset("mlx5-pre612", p)).driverMs(), 1e-6);
        assertClose(Scenario.VQ_CREATION, "mlx5-611", UpstreamScenarios.driverOkMq(preset("mlx5-611", p)).driverMs(), 1e-6);
        assertClose(Scenario.VQ_CREATION, "mlx5-pre612", UpstreamScenarios.driverOkMq(preset("mlx5-pre612", p)).driverMs(), 1e-6);
        assertClose(Scenario.LM_DOWNTIME_1, "mlx5-pre612",
                UpstreamScenarios.window1(preset("mlx5-pre612", p), new VmmResiduals(fit.vmmResidual1Ms(), 0)).totalMs(), 1e-6);
        assertClose(Scenario.LM_DOWNTIME_1, "mlx5-612",
                UpstreamScenarios.window1(preset("mlx5-612", p), new VmmResiduals(fit.vmmResidual1Ms(), 0)).totalMs(), 1e-6);
        // the integer FW concurrency cannot hit 5 ms exactly: 11 rounds of 0.44 ms
        assertClose(Scenario.RESUME, "mlx5-612", UpstreamScenarios.resume(preset("mlx5-612", p)).driverMs(), 0.03);
        double share = UpstreamScenarios.mrRelease(preset("mlx5-612", p), 4096).deferredMs()
                / UpstreamScenarios.mrBuild(preset("mlx5-612", p), 4096).driverMs();
        assertEquals(Mlx5Calibration.DELETION_SHARE_OF_CREATION, share, 1e-6);
        assertTrue(fit.vmmResidual1Ms() >= 0, "the point's window #1 leaves non-negative VMM work: " + fit.vmmResidual1Ms());
    }

    @Test
    void theFitCannotReadAHeldOutFigure() {
        assertThrows(IllegalStateException.class, () -> Mlx5Calibration.target(Scenario.LM_DOWNTIME_2, "mlx5-612"));
        assertThrows(IllegalStateException.class, () -> Mlx5Calibration.target(Scenario.LM_DOWNTIME_2, "mlx5-pre612"));
        assertTrue(Mlx5PublishedFigure.ALL.stream().allMatch(f -> f.use() == Mlx5PublishedFigure.Use.CALIBRATION),
                "the held-out figures are not in the calibration set's type");
        assertEquals(8, Mlx5PublishedFigure.calibrationSet().size());
    }

    private static Mlx5Preset preset(String name, Mlx5Params p) {
        return Mlx5Presets.preset(name).withParams(p);
    }

    private static void assertClose(Scenario s, String preset, double model, double relative) {
        double published = Mlx5Calibration.target(s, preset);
        assertTrue(Math.abs(model - published) <= published * relative,
                s + " on " + preset + ": model " + model + " vs calibration figure " + published);
    }
}
