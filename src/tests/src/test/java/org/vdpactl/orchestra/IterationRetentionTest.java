package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rehearsal keeps the spans of a bounded number of iterations, whatever the iteration count. */
class IterationRetentionTest {
    private static final List<Lane> LANES = List.of(Lane.same("d0"));

    /** An iteration whose downtime is {@code downtime} ns (one suspend at 0, one resume ending at {@code downtime}). */
    private static Timeline iteration(int index, long downtime) {
        return new Timeline(index, Strategy.PARALLEL, LANES, List.of(new Span("d0", Phase.SUSPEND, "VHOST_VDPA_SUSPEND", 0, 1, 0),
                new Span("d0", Phase.RESUME, "VHOST_VDPA_RESUME", downtime - 1, downtime, 0)), Set.of());
    }

    @Test
    void keepsEveryIterationUpToTheLimitThenTheLastTheWorstAndThoseNearestTheMedian() {
        IterationRetention r = new IterationRetention(4);
        for (int i = 0; i < 3; i++) {
            r.add(iteration(i, 100 + i));
        }
        assertEquals(List.of(0, 1, 2), r.kept().stream().map(Timeline::index).toList(), "nothing dropped below the limit");
        // downtimes 100..102, then 500 (worst), then 0 (far below), 101, 99: median stays near 100
        long[] more = {500, 0, 101, 99, 100, 102};
        for (int i = 0; i < more.length; i++) {
            r.add(iteration(3 + i, more[i]));
        }
        List<Timeline> kept = r.kept();
        assertEquals(4, kept.size());
        assertEquals(3 + more.length - 1, kept.getLast().index(), "the last iteration is kept");
        assertTrue(kept.stream().anyMatch(t -> t.downtimeNanos() == 500), "the worst iteration is kept: " + indices(kept));
        assertTrue(kept.stream().noneMatch(t -> t.downtimeNanos() == 0), "the outlier far from the median went: " + indices(kept));
        assertEquals(9, r.count());
        assertEquals(101, r.median());
    }

    @Test
    void theSpansKeptDoNotGrowWithTheIterationCount() {
        long spans20 = keptSpans(20);
        long spans40 = keptSpans(40);
        assertEquals(spans20, spans40, "spans kept after 20 and after 40 iterations");
    }

    private static long keptSpans(int iterations) {
        try (FakeRig rig = FakeRig.withModels(2, 2, FixedCostModel::new)) {
            RehearsalPlan plan = RehearsalPlan.builder(rig.devices).strategy(Strategy.PARALLEL).queuePairs(1).iterations(iterations)
                    .build();
            RehearsalResult r = rig.rehearsal().run(plan);
            assertTrue(r.completed());
            assertEquals(iterations, r.statistics().count(), "every iteration is in the histograms");
            assertEquals(iterations, r.iterationsRun());
            assertEquals(Rehearsal.KEPT_ITERATIONS, r.iterations().size());
            assertEquals(iterations - 1, r.lastIteration().index());
            return r.iterations().stream().mapToLong(t -> t.spans().size()).sum();
        }
    }

    private static List<Integer> indices(List<Timeline> kept) {
        return kept.stream().map(Timeline::index).toList();
    }
}
