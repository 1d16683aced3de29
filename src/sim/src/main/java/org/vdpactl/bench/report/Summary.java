package org.vdpactl.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Minimum, median and maximum of repeated measurements (JMH iterations, C repetitions, process runs). */
public record Summary(double min, double median, double max, int n) {
    public static Summary of(List<Double> samples) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no samples");
        }
        List<Double> s = new ArrayList<>(samples);
        Collections.sort(s);
        int k = s.size();
        double median = k % 2 == 1 ? s.get(k / 2) : (s.get(k / 2 - 1) + s.get(k / 2)) / 2;
        return new Summary(s.get(0), median, s.get(k - 1), k);
    }

    /** This summary with every value multiplied by {@code f} (unit changes); a negative f swaps min and max. */
    public Summary scaled(double f) {
        return f >= 0 ? new Summary(min * f, median * f, max * f, n) : new Summary(max * f, median * f, min * f, n);
    }
}
