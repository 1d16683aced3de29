package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.mlx5.Mlx5PredictionInterval.Edge;
import org.vdpactl.fake.mlx5.Mlx5PredictionInterval.Prediction;
import org.vdpactl.fake.mlx5.Mlx5PublishedFigure.Scenario;
import org.vdpactl.sim.HeldOutFigures;
import org.vdpactl.sim.HeldOutPrediction;
import org.vdpactl.sim.UpstreamScenarios;
import org.vdpactl.sim.UpstreamScenarios.VmmResiduals;

/**
 * The committed held-out prediction ({@link HeldOutPrediction#LM_DOWNTIME_2}) is what the fits over
 * the undetermined priors give, recomputed here with the held-out figures sealed: a held-out figure
 * read anywhere in the priors, the fit or the prediction throws, and one typed into them moves the
 * bounds away from the committed ones (or, for the priors' and the fit's sources, is found by
 * {@code HeldOutFiguresTest}). The bounds hold over the whole admitted range, not a grid: priors
 * strictly inside the ranges (the issue's 14.5 % host share among them) predict inside them, and
 * each step of the argument that lets a few fits bound the range ({@link Mlx5PredictionInterval})
 * is checked on these fits.
 */
class Mlx5PredictionIntervalTest {
    /** Inside the ranges, off every point a bound is evaluated at: h = 14.5 % is the issue's case. */
    private static final double[][] INSIDE = {{0.35, 0.145, 4}, {0.30, 0.145, 3}, {0.40, 0.145, 2}, {0.32, 0.30, 6}, {0.38, 0.08, 8}};

    private static List<Edge> edges;
    private static List<Prediction> inside;
    private static Prediction point;

    @BeforeAll
    static void refitOverThePriors() {
        HeldOutFigures.sealed(() -> {
            edges = Mlx5PredictionInterval.edges();
            inside = new ArrayList<>();
            for (double[] x : INSIDE) {
                inside.add(Mlx5PredictionInterval.predict(Mlx5Prior.sample(x[0], x[1], (int) x[2])));
            }
            point = Mlx5PredictionInterval.predict(Mlx5Prior.pointSample());
            return null;
        });
    }

    @Test
    void committedBoundsAreTheRecomputedOnes() {
        HeldOutPrediction fitted = Mlx5PredictionInterval.interval(edges);
        HeldOutPrediction committed = HeldOutPrediction.LM_DOWNTIME_2;
        assertEquals(committed.fits(), fitted.fits(), "fits");
        assertEquals(committed.rejected(), fitted.rejected(), "MKEY concurrencies admitting nothing");
        assertRange("before", committed.beforeMs(), fitted.beforeMs());
        assertRange("after", committed.afterMs(), fitted.afterMs());
        assertRange("change", committed.changeMs(), fitted.changeMs());
    }

    @Test
    void everyAdmittedPriorInsideTheRangesPredictsInsideTheBounds() {
        HeldOutPrediction committed = HeldOutPrediction.LM_DOWNTIME_2;
        int admitted = 0;
        List<Prediction> all = new ArrayList<>(inside);
        all.add(point);
        for (Prediction p : all) {
            if (!p.admitted()) {
                continue;
            }
            admitted++;
            assertTrue(contains(committed.beforeMs(), p.beforeMs()), p.priors() + ": before " + p.beforeMs() + " outside " + committed.beforeMs());
            assertTrue(contains(committed.changeMs(), p.changeMs()), p.priors() + ": change " + p.changeMs() + " outside " + committed.changeMs());
        }
        assertTrue(admitted >= 3, "the calibration admits most of the priors inside the ranges: " + admitted);
    }

    @Test
    void theStepsOfTheArgumentHoldOnTheseFits() {
        List<Prediction> all = new ArrayList<>(inside);
        all.add(point);
        for (Edge e : edges) {
            all.add(e.boundary());
            if (e.admitsAny()) {
                all.add(e.highest());
                all.add(e.lowest());
                assertTrue(e.highest().admitted(), "F " + e.fwConcurrencyMkey() + ": (0.40, 0.05) is admitted when F admits any prior");
            }
        }
        // 0. the MKEY priors move only the two MKEY scales: every other fitted parameter is the point's
        for (Prediction p : all) {
            for (String name : Mlx5Calibration.fittedNames()) {
                if (!Mlx5Calibration.MR_BUILD_GROUP.contains(name) && !Mlx5Calibration.MR_RELEASE_GROUP.contains(name)) {
                    assertEquals(point.fit().params().get(name), p.fit().params().get(name), 1e-6 * Math.abs(point.fit().params().get(name)),
                            p.priors() + ": " + name + " does not depend on the MKEY priors");
                }
            }
        }
        // 1. the prediction is one increasing affine function of R, whatever s, h and F
        Prediction a = all.stream().min((x, y) -> Double.compare(x.releasePerMttNs(), y.releasePerMttNs())).orElseThrow();
        Prediction b = all.stream().max((x, y) -> Double.compare(x.releasePerMttNs(), y.releasePerMttNs())).orElseThrow();
        double slope = (b.beforeMs() - a.beforeMs()) / (b.releasePerMttNs() - a.releasePerMttNs());
        assertTrue(slope > 0, "before grows with R: " + slope);
        for (Prediction p : all) {
            assertEquals(a.beforeMs() + slope * (p.releasePerMttNs() - a.releasePerMttNs()), p.beforeMs(), 1e-6 * p.beforeMs(),
                    p.priors() + ": before is affine in R alone");
            assertEquals(a.afterMs(), p.afterMs(), 1e-9, p.priors() + ": after does not move");
        }
        for (Prediction p : inside) {
            Edge e = edges.get(p.priors().params().fwConcurrencyMkey() - 2);
            // 2. admitted exactly when R is at least the boundary's R0
            assertEquals(p.releasePerMttNs() >= e.boundary().releasePerMttNs() - 1e-9, p.admitted(),
                    p.priors() + ": admitted iff R ≥ R0 " + e.boundary().releasePerMttNs() + " (R " + p.releasePerMttNs() + ")");
            // 3. R is at most the (0.40, 0.05) corner's
            if (e.admitsAny()) {
                assertTrue(p.releasePerMttNs() <= e.highest().releasePerMttNs() + 1e-9, p.priors() + ": R below the highest corner's");
            }
        }
        // 3. at R0 and at the highest corner's R, deletion / creation does not fall as h grows (so the
        // ratio's range over h is its two ends), and it grows with R
        for (Edge e : edges) {
            List<Prediction> at = e.admitsAny() ? List.of(e.boundary(), e.highest()) : List.of(e.boundary());
            double[] first = new double[at.size()];
            for (int k = 0; k < at.size(); k++) {
                double last = 0;
                for (int i = 0; i <= 9; i++) {
                    double h = Mlx5PredictionInterval.H_LOW + i * (Mlx5PredictionInterval.H_HIGH - Mlx5PredictionInterval.H_LOW) / 9;
                    double r = Mlx5Calibration.deletionRatio(Mlx5Prior.withReleaseHostShare(at.get(k).fit().params(), h));
                    assertTrue(r >= last - 1e-12, "F " + e.fwConcurrencyMkey() + ": ratio at h " + h + " " + r + " < " + last);
                    last = r;
                    if (i == 0) {
                        first[k] = r;
                    }
                }
            }
            if (e.admitsAny()) {
                assertTrue(first[1] > first[0], "F " + e.fwConcurrencyMkey() + ": the ratio grows with R");
            }
        }
        // 2. (premise) v6.12's window #1 holds no release work: doubling R leaves its driver time as it is
        Mlx5Params q = edges.get(2).boundary().fit().params();
        Mlx5Params doubled = q.with("hostUnmapPerMttNs", 2 * q.hostUnmapPerMttNs()).with("destroyMkeyPerMttNs", 2 * q.destroyMkeyPerMttNs());
        assertEquals(window1Driver("mlx5-612", q), window1Driver("mlx5-612", doubled), 1e-9, "v6.12 window #1 does not depend on R");
        assertTrue(window1Driver("mlx5-pre612", doubled) > window1Driver("mlx5-pre612", q), "≤ v6.10 window #1 grows with R");
    }

    private static double window1Driver(String preset, Mlx5Params p) {
        return UpstreamScenarios.window1(preset(preset, p), VmmResiduals.NONE).driverMs();
    }

    @Test
    void everyFitReproducesTheCalibrationFiguresAndTheCommittedModelIsThePoint() {
        List<Prediction> all = new ArrayList<>(inside);
        all.add(point);
        edges.forEach(e -> all.add(e.boundary()));
        for (Prediction p : all) {
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
        for (Edge e : edges) {
            assertEquals(0, e.boundary().fit().vmmResidual1Ms(), 1e-6, "F " + e.fwConcurrencyMkey() + ": the boundary's residual");
        }
        assertTrue(point.admitted(), "the calibration figures admit the committed model's priors");
        assertNotNull(point.fit());
    }

    /** The committed values are rounded outwards to 0.1 ms: the bounds contain what they bound. */
    private static boolean contains(HeldOutPrediction.Range r, double x) {
        return r.low() - 1e-9 <= x && x <= r.high() + 1e-9;
    }

    /** Committed outwards at 0.1 ms: low rounded down, high rounded up. */
    private static void assertRange(String what, HeldOutPrediction.Range committed, HeldOutPrediction.Range fitted) {
        assertEquals(Math.floor(fitted.low() * 10) / 10, committed.low(), 1e-9, what + " low: committed " + committed + ", recomputed " + fitted);
        assertEquals(Math.ceil(fitted.high() * 10) / 10, committed.high(), 1e-9, what + " high: committed " + committed + ", recomputed " + fitted);
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
