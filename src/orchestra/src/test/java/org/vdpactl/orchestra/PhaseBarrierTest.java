package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.vdpactl.time.RealClock;
import org.vdpactl.time.VirtualClock;

/** The barrier the parallel strategy's lanes pass after each phase, and the pool they run on. */
class PhaseBarrierTest {
    private static final int LANES = 9; // an incomplete last level of the wake tree

    @Test
    void everyLaneGetsTheStopAnswerOfTheOpeningEvenWhenAFasterLaneFailsRightAfter() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            AtomicBoolean failed = new AtomicBoolean();
            AtomicInteger asked = new AtomicInteger();
            PhaseBarrier barrier = new PhaseBarrier(RealClock.INSTANCE, LANES, () -> {
                asked.incrementAndGet();
                return failed.get();
            });
            ConcurrentLinkedQueue<String> passes = new ConcurrentLinkedQueue<>();
            try (LanePool pool = new LanePool(RealClock.INSTANCE, LANES)) {
                pool.forEach(IntStream.range(0, LANES).boxed().toList(), i -> {
                    for (int phase = 0; phase < 3; phase++) {
                        if (phase == 1 && i == 0) {
                            failed.set(true); // lane 0 fails in phase 1 while others may still be waking from barrier 0
                        }
                        if (barrier.await(i)) {
                            passes.add(i + " stopped after " + phase);
                            return;
                        }
                    }
                    passes.add(i + " ran every phase");
                });
            }
            assertEquals(2, asked.get(), "asked once per opening, by the lane that opened it");
            for (int i = 0; i < LANES; i++) {
                assertEquals(1, count(passes, i + " stopped after 1"), "lane " + i + ": " + passes);
            }
        });
    }

    @Test
    void theClockOfEveryLaneContinuesAtTheLatestArrival() {
        VirtualClock clock = new VirtualClock();
        PhaseBarrier barrier = new PhaseBarrier(clock, LANES, () -> false);
        ConcurrentLinkedQueue<Long> after = new ConcurrentLinkedQueue<>();
        try (LanePool pool = new LanePool(clock, LANES)) {
            pool.forEach(IntStream.range(0, LANES).boxed().toList(), i -> {
                clock.sleepNanos(1_000L * (i + 1));
                barrier.await(i);
                after.add(clock.nanoTime());
            });
            assertEquals(1_000L * LANES, clock.nanoTime(), "the caller continues at the latest end");
        }
        assertEquals(List.of(1_000L * LANES), after.stream().distinct().toList());
    }

    @Test
    void thePoolKeepsOneThreadPerLaneOverManyFanOuts() {
        try (LanePool pool = new LanePool(RealClock.INSTANCE, LANES)) {
            AtomicInteger runs = new AtomicInteger();
            List<Integer> items = IntStream.range(0, LANES).boxed().toList();
            for (int round = 0; round < 50; round++) {
                pool.forEach(items, i -> runs.incrementAndGet());
                pool.forEach(items.subList(0, 3), i -> runs.incrementAndGet());
            }
            assertEquals(50 * (LANES + 3), runs.get());
            assertEquals(LANES, pool.threadsStarted());
        }
    }

    private static long count(ConcurrentLinkedQueue<String> q, String s) {
        return q.stream().filter(s::equals).count();
    }
}
