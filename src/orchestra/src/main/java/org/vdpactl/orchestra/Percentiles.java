package org.vdpactl.orchestra;

import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * Distribution summary of one measure over the iterations, in nanoseconds.
 *
 * <p>From the kept samples ({@link #ofSamples}) every figure is a measured value or, for the mean,
 * their exact average: a percentile is the nearest-rank value (the smallest sample with at least
 * that share of the samples at or below it), so p50 is the lower middle, the same iteration the
 * reports show as the median one. Only when there were too many samples to keep
 * ({@link RehearsalStatistics#EXACT_SAMPLE_LIMIT}) do the figures come from the HdrHistogram,
 * within its three significant digits, and {@link #exact()} is false.
 *
 * @param count number of iterations recorded
 * @param min   smallest value
 * @param p50   median
 * @param p90   90th percentile
 * @param p99   99th percentile
 * @param max   largest value
 * @param mean  arithmetic mean
 * @param exact true when computed from every measured value, false when read off the histogram
 */
public record Percentiles(long count, long min, long p50, long p90, long p99, long max, double mean, boolean exact) {

    /** No sample: there is nothing to summarise (reports print null or nothing, never zeros). */
    public static final Percentiles NONE = new Percentiles(0, 0, 0, 0, 0, 0, Double.NaN, true);

    /** True when no iteration was recorded: every other figure is then meaningless. */
    public boolean empty() {
        return count == 0;
    }

    /** The exact summary of {@code n} samples (the array is not modified). */
    public static Percentiles ofSamples(long[] samples, int n) {
        if (n == 0) {
            return NONE;
        }
        long[] sorted = Arrays.copyOf(samples, n);
        Arrays.sort(sorted);
        double sum = 0;
        for (long v : sorted) {
            sum += v;
        }
        return new Percentiles(n, sorted[0], nearestRank(sorted, 50), nearestRank(sorted, 90), nearestRank(sorted, 99),
                sorted[n - 1], sum / n, true);
    }

    /** The nearest-rank percentile of sorted values: the value at rank ceil(p/100 * n). */
    static long nearestRank(long[] sorted, int percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    /** Reads the summary off an HdrHistogram (values within its 3 significant digits: not exact). */
    public static Percentiles of(Histogram h) {
        if (h.getTotalCount() == 0) {
            return NONE;
        }
        return new Percentiles(h.getTotalCount(), h.getMinValue(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
                h.getValueAtPercentile(99), h.getMaxValue(), h.getMean(), false);
    }
}
