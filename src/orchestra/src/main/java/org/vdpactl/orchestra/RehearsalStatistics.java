package org.vdpactl.orchestra;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The iterations of a rehearsal: the downtime and the wall time of every window phase, in
 * nanoseconds. Each measure keeps its exact samples (one per iteration, 8 bytes each) up to
 * {@link #EXACT_SAMPLE_LIMIT}, and its summary is computed from them; past that it is read off an
 * HdrHistogram with three significant digits (then {@link Percentiles#exact()} is false and the
 * reports say so). The histograms are kept either way: the charts bin them. Not thread-safe; the
 * runner records after each iteration.
 */
public final class RehearsalStatistics {
    /** Samples kept per measure: 100,000 iterations, 800 KB per measure. */
    public static final int EXACT_SAMPLE_LIMIT = 100_000;
    private static final int SIGNIFICANT_DIGITS = 3;

    private final int exactLimit;
    private final Measure downtime;
    private final Map<Phase, Measure> phases = new EnumMap<>(Phase.class);

    public RehearsalStatistics() {
        this(EXACT_SAMPLE_LIMIT);
    }

    /** With another sample limit (tests: the histogram fallback without 100,000 iterations). */
    public RehearsalStatistics(int exactLimit) {
        this.exactLimit = exactLimit;
        this.downtime = new Measure(exactLimit);
    }

    /** Adds one completed iteration. */
    public void record(Timeline timeline) {
        downtime.record(timeline.downtimeNanos());
        for (PhaseSummary p : timeline.phases()) {
            phases.computeIfAbsent(p.phase(), k -> new Measure(exactLimit)).record(p.wallNanos());
        }
    }

    public long count() {
        return downtime.histogram.getTotalCount();
    }

    /** True while every summary is computed from the measured values (no more than the limit recorded). */
    public boolean exact() {
        return count() <= exactLimit;
    }

    public Percentiles downtime() {
        return downtime.summary();
    }

    /** Per window phase that occurred, in phase order. */
    public Map<Phase, Percentiles> phases() {
        Map<Phase, Percentiles> out = new EnumMap<>(Phase.class);
        phases.forEach((p, m) -> out.put(p, m.summary()));
        return out;
    }

    /** The downtime histogram itself (for charts); do not modify. */
    public Histogram downtimeHistogram() {
        return downtime.histogram;
    }

    /** The per-phase histograms (for charts); do not modify. */
    public Map<Phase, Histogram> phaseHistograms() {
        Map<Phase, Histogram> out = new EnumMap<>(Phase.class);
        phases.forEach((p, m) -> out.put(p, m.histogram));
        return Collections.unmodifiableMap(out);
    }

    /** One measure: its samples while they are few enough, and its histogram. */
    private static final class Measure {
        private final int limit;
        private final Histogram histogram = new Histogram(SIGNIFICANT_DIGITS);
        private long[] samples = new long[16];
        private int n;

        Measure(int limit) {
            this.limit = limit;
        }

        void record(long value) {
            histogram.recordValue(value);
            if (samples == null) {
                return;
            }
            if (n == limit) {
                samples = null; // too many to keep: the histogram answers from now on
                return;
            }
            if (n == samples.length) {
                samples = Arrays.copyOf(samples, Math.min(limit, n * 2));
            }
            samples[n++] = value;
        }

        Percentiles summary() {
            return samples != null ? Percentiles.ofSamples(samples, n) : Percentiles.of(histogram);
        }
    }
}
