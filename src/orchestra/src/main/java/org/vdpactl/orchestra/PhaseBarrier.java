package org.vdpactl.orchestra;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.vdpactl.time.Clock;

/**
 * The barrier between two window phases of the parallel strategy, passed by the lane threads
 * themselves: no phase of any device starts before every device finished the previous one, and no
 * thread outside the lanes takes part (a round trip through the caller cost one more wake-up per
 * phase).
 *
 * <p>The last lane to arrive opens the barrier and wakes lane 0; every lane that gets through wakes
 * its two children (2i+1, 2i+2) first, so n waiters are woken by a tree of depth log2(n) spread
 * over every CPU, instead of by one thread in turn or through a lock that each waiter must take
 * again (what {@code CyclicBarrier} does). Every lane continues at the latest arrival time, which
 * keeps a {@link org.vdpactl.time.VirtualClock} exact: the phase costs its slowest device.
 */
final class PhaseBarrier {
    private final Clock clock;
    private final Thread[] parties;
    private final AtomicInteger arrived = new AtomicInteger();
    private final AtomicLong latest = new AtomicLong(Long.MIN_VALUE);
    private final BooleanSupplier stop;
    private volatile int generation;
    private volatile long openedAt;
    private volatile boolean stopAtOpening;

    /**
     * @param parties the number of lanes; each passes the barrier with its lane index
     * @param stop    asked once per opening, by the lane that opens it; every lane gets that answer
     */
    PhaseBarrier(Clock clock, int parties, BooleanSupplier stop) {
        if (parties < 1) {
            throw new IllegalArgumentException("a barrier needs at least one party: " + parties);
        }
        this.clock = clock;
        this.parties = new Thread[parties];
        this.stop = stop;
    }

    /**
     * Lane {@code index} arrives; returns once every lane has arrived. A lane always arrives from
     * the same thread; the thread is known from its first arrival on (before anyone wakes it).
     *
     * @return true when every lane is to stop here: the answer of {@code stop} when the barrier
     *         opened, the same for every lane (a lane that asked later could see a failure of a
     *         faster lane's next phase, stop, and leave the others waiting at the next barrier)
     */
    boolean await(int index) {
        parties[index] = Thread.currentThread();
        int gen = generation;
        latest.accumulateAndGet(clock.nanoTime(), Math::max);
        if (arrived.incrementAndGet() == parties.length) {
            arrived.set(0);
            openedAt = latest.getAndSet(Long.MIN_VALUE);
            stopAtOpening = stop.getAsBoolean();
            generation = gen + 1;
            if (index != 0) {
                LockSupport.unpark(parties[0]);
            }
        } else {
            while (generation == gen) {
                LockSupport.park(this);
            }
        }
        for (int c = 2 * index + 1; c <= 2 * index + 2 && c < parties.length; c++) {
            LockSupport.unpark(parties[c]);
        }
        boolean stopHere = stopAtOpening;
        clock.continueAt(openedAt);
        return stopHere;
    }
}
