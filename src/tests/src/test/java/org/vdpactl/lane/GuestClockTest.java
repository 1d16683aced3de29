package org.vdpactl.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * GuestClock's measurement on made-up clocks: a clock that moves only at each 4 ms tick (the lane guest
 * on the jiffies clock) measures 4,000 us and is refused; one that moves by a microsecond per read is
 * fine; one odd small step does not make a tick clock look fine; a clock that never moves is refused.
 */
class GuestClockTest {

    /** A clock read every 1 us of simulated time that only shows whole ticks of the given length. */
    private static LongSupplier ticking(long tickNanos) {
        AtomicLong t = new AtomicLong();
        return () -> t.addAndGet(1_000) / tickNanos * tickNanos;
    }

    @Test
    void aJiffiesClockMeasuresItsTickAndIsRefused() {
        double step = GuestClock.stepMicros(ticking(4_000_000));
        assertEquals(4_000, step, 1e-9);
        assertFalse(GuestClock.fineEnough(step));
    }

    @Test
    void aMicrosecondClockIsFineEnough() {
        double step = GuestClock.stepMicros(ticking(1_000));
        assertEquals(1, step, 1e-9);
        assertTrue(GuestClock.fineEnough(step));
    }

    @Test
    void oneOddSmallStepDoesNotHideTheTick() {
        AtomicLong reads = new AtomicLong();
        LongSupplier tick = ticking(4_000_000);
        // the first step is 1 ns (an adjustment), every later one a whole 4 ms tick
        LongSupplier clock = () -> reads.incrementAndGet() == 2 ? 1 : tick.getAsLong();
        assertEquals(4_000, GuestClock.stepMicros(clock), 1e-9);
    }

    @Test
    void aClockThatNeverMovesIsRefused() {
        double step = GuestClock.stepMicros(() -> 42);
        assertEquals(Double.POSITIVE_INFINITY, step);
        assertFalse(GuestClock.fineEnough(step));
    }
}
