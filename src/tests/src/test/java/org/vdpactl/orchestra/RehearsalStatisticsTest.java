package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The statistics are the measured values (issue 36 item 3): one iteration measured at 41.219527 ms reports
 * 41.219527 ms as its min, p50 and max, not the HdrHistogram bucket around it; percentiles are nearest-rank
 * samples; past the kept-sample limit they come from the histogram and say so.
 */
class RehearsalStatisticsTest {
    private static final List<Lane> LANES = List.of(Lane.same("d0"));

    /** An iteration whose downtime is {@code downtime} ns and whose suspend phase takes {@code suspend} ns. */
    private static Timeline iteration(int index, long suspend, long downtime) {
        return new Timeline(index, Strategy.PARALLEL, LANES, List.of(new Span("d0", Phase.SUSPEND, "VHOST_VDPA_SUSPEND", 0, suspend, 0),
                new Span("d0", Phase.RESUME, "VHOST_VDPA_RESUME", downtime - 1, downtime, 0)), Set.of());
    }

    @Test
    void oneIterationReportsItsMeasuredValueEverywhere() {
        RehearsalStatistics s = new RehearsalStatistics();
        s.record(iteration(0, 2_345_678, 41_219_527));
        Percentiles p = s.downtime();
        assertEquals(List.of(41_219_527L, 41_219_527L, 41_219_527L, 41_219_527L, 41_219_527L),
                List.of(p.min(), p.p50(), p.p90(), p.p99(), p.max()), p.toString());
        assertEquals(41_219_527.0, p.mean());
        assertTrue(p.exact());
        assertEquals(2_345_678L, s.phases().get(Phase.SUSPEND).p50(), "phase walls are exact too");
    }

    @Test
    void percentilesAreNearestRankSamplesAndTheMeanIsExact() {
        RehearsalStatistics s = new RehearsalStatistics();
        long[] downtimes = {30_000_007, 10_000_001, 40_000_009, 20_000_003};
        for (int i = 0; i < downtimes.length; i++) {
            s.record(iteration(i, 1_000 + i, downtimes[i]));
        }
        Percentiles p = s.downtime();
        assertEquals(4, p.count());
        assertEquals(10_000_001L, p.min());
        assertEquals(20_000_003L, p.p50(), "the lower middle: the iteration the reports show as the median one");
        assertEquals(40_000_009L, p.p90());
        assertEquals(40_000_009L, p.p99());
        assertEquals(40_000_009L, p.max());
        assertEquals((10_000_001.0 + 20_000_003 + 30_000_007 + 40_000_009) / 4, p.mean(), 0.0);
        IterationRetention kept = new IterationRetention(16);
        for (int i = 0; i < downtimes.length; i++) {
            kept.add(iteration(i, 1, downtimes[i]));
        }
        assertEquals(kept.median(), p.p50(), "the same median as the iteration shown");
    }

    @Test
    void pastTheSampleLimitTheHistogramAnswersAndSaysSo() {
        RehearsalStatistics s = new RehearsalStatistics(3);
        for (int i = 0; i < 3; i++) {
            s.record(iteration(i, 1_000, 41_219_527 + i));
        }
        assertTrue(s.exact());
        assertTrue(s.downtime().exact());
        s.record(iteration(3, 1_000, 41_219_530));
        assertFalse(s.exact());
        assertFalse(s.downtime().exact(), "more samples than kept: read off the histogram");
        assertEquals(Percentiles.of(s.downtimeHistogram()), s.downtime());
        assertEquals(4, s.downtime().count());
    }

    @Test
    void noIterationIsEmptyNotZero() {
        Percentiles p = new RehearsalStatistics().downtime();
        assertTrue(p.empty());
        assertEquals(0, p.count());
        assertTrue(Double.isNaN(p.mean()), "no mean of nothing");
    }
}
