package org.vdpactl.orchestra;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Which iterations of a rehearsal keep their spans. One iteration of 256 devices x 32 VQs holds
 * about 100,000 spans, so keeping every iteration made the heap grow with the iteration count. The
 * histograms ({@link RehearsalStatistics}) take every iteration; the spans are kept for at most
 * {@code limit} iterations: all of them while there are no more, then always the last one (a
 * failure is reported from it) and the one with the longest downtime, and otherwise those whose
 * downtime lies nearest the median so far (the reports show the median iteration). What stays per
 * dropped iteration is its downtime: 8 bytes, whatever the device count.
 */
final class IterationRetention {
    private final int limit;
    private final List<Timeline> kept = new ArrayList<>();
    private long[] downtimes = new long[16];
    private int count;

    IterationRetention(int limit) {
        if (limit < 2) {
            throw new IllegalArgumentException("at least the last and the worst iteration are kept: " + limit);
        }
        this.limit = limit;
    }

    /** Adds the next iteration ({@code t.index()} must be the number of iterations added before). */
    void add(Timeline t) {
        if (count == downtimes.length) {
            downtimes = Arrays.copyOf(downtimes, count * 2);
        }
        downtimes[count++] = t.downtimeNanos();
        kept.add(t);
        if (kept.size() > limit) {
            evictFarthestFromMedian();
        }
    }

    private void evictFarthestFromMedian() {
        long median = median();
        Timeline last = kept.getLast();
        Timeline worst = kept.stream().max(Comparator.comparingLong(Timeline::downtimeNanos)).orElseThrow();
        Timeline evict = null;
        for (Timeline t : kept) {
            if (t == last || t == worst) {
                continue;
            }
            if (evict == null || Math.abs(t.downtimeNanos() - median) > Math.abs(evict.downtimeNanos() - median)) {
                evict = t;
            }
        }
        kept.remove(evict);
    }

    /** The median downtime over every iteration added (the lower middle for an even count). */
    long median() {
        long[] sorted = Arrays.copyOf(downtimes, count);
        Arrays.sort(sorted);
        return sorted[(count - 1) / 2];
    }

    int count() {
        return count;
    }

    /** The kept iterations, oldest first. */
    List<Timeline> kept() {
        return List.copyOf(kept);
    }
}
