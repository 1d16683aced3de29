package org.vdpactl.orchestra;

import org.HdrHistogram.Histogram;

/**
 * Distribution summary of one measure over the iterations, in nanoseconds.
 *
 * @param count number of iterations recorded
 * @param min   smallest value
 * @param p50   median
 * @param p90   90th percentile
 * @param p99   99th percentile
 * @param max   largest value
 * @param mean  arithmetic mean
 */
public record Percentiles(long count, long min, long p50, long p90, long p99, long max, double mean) {

    /** Reads the summary off an HdrHistogram (values within its 3 significant digits). */
    public static Percentiles of(Histogram h) {
        if (h.getTotalCount() == 0) {
            return new Percentiles(0, 0, 0, 0, 0, 0, 0);
        }
        return new Percentiles(h.getTotalCount(), h.getMinValue(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
                h.getValueAtPercentile(99), h.getMaxValue(), h.getMean());
    }
}
