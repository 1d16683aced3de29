package org.vdpactl.orchestra;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The iterations of a rehearsal as HdrHistograms: the downtime and the wall time of every window
 * phase, in nanoseconds with three significant digits. Not thread-safe; the runner records after
 * each iteration.
 */
public final class RehearsalStatistics {
    private static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram downtime = new Histogram(SIGNIFICANT_DIGITS);
    private final Map<Phase, Histogram> phases = new EnumMap<>(Phase.class);

    /** Adds one completed iteration. */
    public void record(Timeline timeline) {
        downtime.recordValue(timeline.downtimeNanos());
        for (PhaseSummary p : timeline.phases()) {
            phases.computeIfAbsent(p.phase(), k -> new Histogram(SIGNIFICANT_DIGITS)).recordValue(p.wallNanos());
        }
    }

    public long count() {
        return downtime.getTotalCount();
    }

    public Percentiles downtime() {
        return Percentiles.of(downtime);
    }

    /** Per window phase that occurred, in phase order. */
    public Map<Phase, Percentiles> phases() {
        Map<Phase, Percentiles> out = new EnumMap<>(Phase.class);
        phases.forEach((p, h) -> out.put(p, Percentiles.of(h)));
        return out;
    }

    /** The downtime histogram itself (for charts); do not modify. */
    public Histogram downtimeHistogram() {
        return downtime;
    }

    /** The per-phase histograms (for charts); do not modify. */
    public Map<Phase, Histogram> phaseHistograms() {
        return Collections.unmodifiableMap(phases);
    }
}
