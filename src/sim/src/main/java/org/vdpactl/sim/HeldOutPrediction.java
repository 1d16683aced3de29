package org.vdpactl.sim;

/**
 * The held-out prediction (live-migration downtime #2, 4 devices) as its bounds over the whole
 * range of the priors the calibration figures cannot tell apart
 * ({@link org.vdpactl.fake.mlx5.Mlx5Prior#SAMPLED}: MR deletion share 0.30..0.40, release host share
 * 0.05..0.50, MKEY concurrency every integer 2..8), of which a prior whose fit needs a negative VMM
 * residual in window #1 is rejected. Not a grid: the prediction depends on the fitted MR release
 * per MTT entry alone and grows with it, a prior is admitted exactly when that release reaches the
 * value where window #1's residual is 0, and the release grows with the deletion share and falls
 * with the host share; so per MKEY concurrency the lowest prediction is at that boundary (or the
 * lowest corner when all is admitted) and the highest at the corner (0.40, 0.05). The test-scope
 * {@code Mlx5PredictionInterval} gives the argument, {@code Mlx5PredictionIntervalTest} checks each
 * step on the fits. Simulated, no VMM residual (#2 is held out).
 *
 * <p>The values are the output of {@code Mlx5PredictionInterval}, rounded outwards to 0.1 ms;
 * {@code Mlx5PredictionIntervalTest} recomputes them with the held-out figures sealed and fails
 * when they drift. Do not edit them by hand.
 *
 * @param beforeMs  {@code mlx5-pre612} window total
 * @param afterMs   {@code mlx5-612} window total
 * @param changeMs  before − after, per fit (not the difference of the bounds)
 * @param fits      how many fits of the calibration set the bounds rest on
 * @param rejected  MKEY concurrencies whose every prior needs a negative VMM residual
 */
public record HeldOutPrediction(Range beforeMs, Range afterMs, Range changeMs, int fits, int rejected) {
    /** A closed interval. */
    public record Range(double low, double high) {
        public Range {
            if (!(low <= high)) {
                throw new IllegalArgumentException("empty range " + low + ".." + high);
            }
        }

        /** True when {@code x} lies in the range. */
        public boolean contains(double x) {
            return low <= x && x <= high;
        }
    }

    /** Window #2 of the published pair over the undetermined priors. */
    public static final HeldOutPrediction LM_DOWNTIME_2 = new HeldOutPrediction(
            new Range(2329.8, 3965.7), new Range(27.9, 28.0), new Range(2301.9, 3937.8), 12, 2);
}
