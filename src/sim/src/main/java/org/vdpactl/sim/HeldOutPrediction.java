package org.vdpactl.sim;

/**
 * The held-out prediction (live-migration downtime #2, 4 devices) as the interval it spans over the
 * priors the calibration figures cannot tell apart ({@link org.vdpactl.fake.mlx5.Mlx5Prior#SAMPLED}):
 * the model is refitted on the calibration set from each sample of a grid over those priors
 * ({@link org.vdpactl.fake.mlx5.Mlx5Prior#samples()}; each fit reproduces every calibration figure),
 * a fit that needs a negative VMM residual in window #1 is rejected, and each admitted fit predicts
 * #2. The bounds are the least and greatest prediction over the admitted fits: the range over the
 * grid, not a proven bound between its points. Simulated, no VMM residual (#2 is held out).
 *
 * <p>The values are the output of the test-scope routine {@code Mlx5PredictionInterval}, rounded to
 * 0.1 ms; {@code Mlx5PredictionIntervalTest} recomputes them with the held-out figures sealed and
 * fails when they drift. Do not edit them by hand.
 *
 * @param beforeMs  {@code mlx5-pre612} window total
 * @param afterMs   {@code mlx5-612} window total
 * @param changeMs  before − after, per fit (not the difference of the bounds)
 * @param fits      how many fits the interval spans
 * @param rejected  samples whose fit needed a negative VMM residual
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
            new Range(2431.7, 3965.7), new Range(27.9, 27.9), new Range(2403.8, 3937.8), 6, 13);
}
