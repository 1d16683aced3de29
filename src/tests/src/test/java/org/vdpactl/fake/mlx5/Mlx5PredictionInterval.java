package org.vdpactl.fake.mlx5;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.vdpactl.sim.HeldOutPrediction;
import org.vdpactl.sim.HeldOutPrediction.Range;
import org.vdpactl.sim.UpstreamScenarios;
import org.vdpactl.sim.UpstreamScenarios.VmmResiduals;

/**
 * The routine behind {@link HeldOutPrediction#LM_DOWNTIME_2}: the bounds of the predicted
 * live-migration downtime #2 over the whole admitted range of the undetermined priors
 * ({@link Mlx5Prior#SAMPLED}: deletion share s in 0.30..0.40, release host share h in 0.05..0.50,
 * MKEY concurrency F every integer 2..8). Reads no held-out figure: it predicts, it does not score.
 *
 * <p>Why a few fits bound the whole range (the model's algebra; {@code Mlx5PredictionIntervalTest}
 * checks each step numerically). For one F, the fitted object and VQ parameters do not depend on
 * the MKEY priors (their calibration figures hold no MKEY work), so a fit is two scales: the MR
 * build scale b and the MR release per MTT entry R (host + firmware).
 * <ol>
 * <li>The prediction depends on R alone and grows with it: ≤ v6.10's window #2 is suspend,
 * get_vq_state and a serial release (per direct key one sync DESTROY then the DMA unmap: the sum
 * per MTT entry shows, not its split, and no concurrency); v6.12 defers the release (a constant).
 * <li>Admission depends on R alone and holds from one value R0 up: the fit matches LM #1's
 * before − after, which grows with R (the ≤ v6.10 release is on its path) and with b (a serial
 * build grows by all its work, a parallel one by its critical path only), so b falls as R grows;
 * window #1's residual is the v6.12 row minus its driver time, which grows with b, so the residual
 * grows with R. R0 is {@link Mlx5Calibration#fitWithoutResidual} (residual 0).
 * <li>R grows with s and does not fall as h falls: the fit sets v6.12 deletion / creation
 * ({@link Mlx5Calibration#deletionRatio}) to s; the deletion grows with R and, at a fixed R, does not
 * fall as h grows (work moved from F firmware servers to the one host thread), the creation falls
 * as R grows (b falls).
 * </ol>
 * So for one F: the highest prediction is at (s, h) = (0.40, 0.05) when admitted; the lowest is at
 * R0 when some (s, h) of the ranges reaches R0 (deletionRatio at R0 is at most 0.40 at h = 0.05
 * and at least 0.30 at h = 0.50), at (0.30, 0.50) when every (s, h) is admitted, and F admits
 * nothing when deletionRatio at R0 exceeds 0.40 already at h = 0.05. The bounds are the least and
 * greatest over F.
 */
final class Mlx5PredictionInterval {
    static final double S_LOW = Mlx5Prior.DELETION_SHARE.low();
    static final double S_HIGH = Mlx5Prior.DELETION_SHARE.high();
    static final double H_LOW = Mlx5Prior.RELEASE_HOST_SHARE.low();
    static final double H_HIGH = Mlx5Prior.RELEASE_HOST_SHARE.high();

    /**
     * One fit's prediction.
     *
     * @param priors   the sample it was fitted from (for a boundary fit: its F, the point's s and h)
     * @param fit      the fit
     * @param beforeMs #2 on {@code mlx5-pre612}
     * @param afterMs  #2 on {@code mlx5-612}
     */
    record Prediction(Mlx5Prior.Sample priors, Mlx5Calibration.Fit fit, double beforeMs, double afterMs) {
        double changeMs() {
            return beforeMs - afterMs;
        }

        /** The calibration figures admit the sample: window #1's VMM work is not negative (to the fit's precision). */
        boolean admitted() {
            return fit.vmmResidual1Ms() >= -1e-6;
        }

        /** The fitted MR release per MTT entry, host + firmware (ns). */
        double releasePerMttNs() {
            return fit.params().hostUnmapPerMttNs() + fit.params().destroyMkeyPerMttNs();
        }
    }

    /**
     * What one MKEY concurrency admits.
     *
     * @param fwConcurrencyMkey F
     * @param boundary          the fit with window #1's residual at 0 (R0)
     * @param ratioAtLowHost    deletion / creation at R0 with h = 0.05
     * @param ratioAtHighHost   deletion / creation at R0 with h = 0.50
     * @param highest           the fit at (0.40, 0.05), or null when F admits nothing
     * @param lowest            the admitted fit with the least R, or null when F admits nothing
     */
    record Edge(int fwConcurrencyMkey, Prediction boundary, double ratioAtLowHost, double ratioAtHighHost, Prediction highest,
            Prediction lowest) {
        boolean admitsAny() {
            return highest != null;
        }
    }

    private Mlx5PredictionInterval() {
    }

    /** The fit from {@code s} and its prediction. */
    static Prediction predict(Mlx5Prior.Sample s) {
        return predict(s, Mlx5Calibration.fit(s));
    }

    static Prediction predict(Mlx5Prior.Sample s, Mlx5Calibration.Fit fit) {
        return new Prediction(s, fit, window2(UpstreamScenarios.PRE612, fit.params()), window2(UpstreamScenarios.V612, fit.params()));
    }

    /** What MKEY concurrency {@code f} admits (one to three fits). */
    static Edge edge(int f) {
        Mlx5Prior.Sample atF = Mlx5Prior.sample(Mlx5Prior.DELETION_SHARE.point(), Mlx5Prior.RELEASE_HOST_SHARE.point(), f);
        Prediction boundary = predict(atF, Mlx5Calibration.fitWithoutResidual(atF.params()));
        double low = Mlx5Calibration.deletionRatio(Mlx5Prior.withReleaseHostShare(boundary.fit().params(), H_LOW));
        double high = Mlx5Calibration.deletionRatio(Mlx5Prior.withReleaseHostShare(boundary.fit().params(), H_HIGH));
        if (low > S_HIGH) {
            return new Edge(f, boundary, low, high, null, null);
        }
        Prediction highest = predict(Mlx5Prior.sample(S_HIGH, H_LOW, f));
        Prediction lowest = high < S_LOW ? predict(Mlx5Prior.sample(S_LOW, H_HIGH, f)) : boundary;
        return new Edge(f, boundary, low, high, highest, lowest);
    }

    /** Every integer F of the prior's range. */
    static List<Edge> edges() {
        List<Edge> out = new ArrayList<>();
        for (int f = (int) Mlx5Prior.FW_CONCURRENCY_MKEY.low(); f <= (int) Mlx5Prior.FW_CONCURRENCY_MKEY.high(); f++) {
            out.add(edge(f));
        }
        return out;
    }

    /** The bounds over every F that admits a prior; {@code fits} counts the fits they rest on. */
    static HeldOutPrediction interval(List<Edge> edges) {
        List<Prediction> ends = new ArrayList<>();
        int fits = 0;
        int rejected = 0;
        for (Edge e : edges) {
            fits++;
            if (!e.admitsAny()) {
                rejected++;
                continue;
            }
            ends.add(e.highest());
            ends.add(e.lowest());
            fits += e.lowest() == e.boundary() ? 1 : 2;
        }
        return new HeldOutPrediction(range(ends.stream().mapToDouble(Prediction::beforeMs).toArray()),
                range(ends.stream().mapToDouble(Prediction::afterMs).toArray()),
                range(ends.stream().mapToDouble(Prediction::changeMs).toArray()), fits, rejected);
    }

    private static double window2(String preset, Mlx5Params p) {
        return UpstreamScenarios.window2(Mlx5Presets.preset(preset).withParams(p), UpstreamScenarios.LM_DEVICES, VmmResiduals.NONE)
                .totalMs();
    }

    private static Range range(double[] v) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double x : v) {
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
        }
        return new Range(lo, hi);
    }

    /** Prints what each F admits and the bounds (to copy into {@link HeldOutPrediction}). */
    public static void main(String[] args) {
        List<Edge> edges = edges();
        for (Edge e : edges) {
            System.out.printf(Locale.ROOT, "F %d: R0 %.4f ns before %.1f ratio(h .05) %.4f ratio(h .50) %.4f r1 %.2e%n", e.fwConcurrencyMkey(),
                    e.boundary().releasePerMttNs(), e.boundary().beforeMs(), e.ratioAtLowHost(), e.ratioAtHighHost(),
                    e.boundary().fit().vmmResidual1Ms());
            if (e.admitsAny()) {
                System.out.printf(Locale.ROOT, "   highest R %.4f before %.1f r1 %.2f; lowest R %.4f before %.1f%n",
                        e.highest().releasePerMttNs(), e.highest().beforeMs(), e.highest().fit().vmmResidual1Ms(),
                        e.lowest().releasePerMttNs(), e.lowest().beforeMs());
            }
        }
        System.out.println(interval(edges));
        for (String a : args) {
            String[] x = a.split(",");
            Prediction p = predict(Mlx5Prior.sample(Double.parseDouble(x[0]), Double.parseDouble(x[1]), Integer.parseInt(x[2])));
            System.out.printf(Locale.ROOT, "s %s h %s F %s: R %.4f before %.1f change %.1f r1 %.2f%n", x[0], x[1], x[2],
                    p.releasePerMttNs(), p.beforeMs(), p.changeMs(), p.fit().vmmResidual1Ms());
        }
    }
}
