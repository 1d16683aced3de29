package org.vdpactl.time;

/**
 * Something that does one piece of work at a time: a device behind its lock, a firmware command
 * queue. {@link #work} charges the calling thread for {@code costNanos} of work on it.
 *
 * <p>Real clock: the caller is expected to hold the resource's own lock already (the fake holds the
 * device mutex as the kernel does), so work simply sleeps. Virtual clock: the work starts at the
 * later of the caller's time and the end of the previous work on this resource, and the caller's
 * time moves to its end. Either way a serial user pays the sum and parallel users of different
 * resources pay the longest path.
 */
public final class Resource {
    private final Clock clock;
    private final String name;
    private long busyUntil = Long.MIN_VALUE;

    Resource(Clock clock, String name) {
        this.clock = clock;
        this.name = name;
    }

    public String name() {
        return name;
    }

    /** Performs {@code costNanos} of work on this resource for the calling thread; returns its start time. */
    public long work(long costNanos) {
        if (costNanos < 0) {
            throw new IllegalArgumentException("negative cost on " + name + ": " + costNanos);
        }
        if (!clock.isVirtual()) {
            long start = clock.nanoTime();
            if (costNanos > 0) {
                clock.sleepNanos(costNanos);
            }
            return start;
        }
        long start;
        synchronized (this) {
            start = Math.max(clock.nanoTime(), busyUntil);
            busyUntil = start + costNanos;
        }
        clock.continueAt(start + costNanos);
        return start;
    }

    /**
     * As {@link #work}, for work issued at {@code issuedAt}: on the real clock the caller returns at
     * {@code issuedAt + costNanos}, so the time the fake spent computing the cost (its model's own
     * bookkeeping, which the cost already includes as host work) is not charged twice. Virtual
     * clock: exactly {@link #work}.
     */
    public long workSince(long issuedAt, long costNanos) {
        if (clock.isVirtual()) {
            return work(costNanos);
        }
        if (costNanos < 0) {
            throw new IllegalArgumentException("negative cost on " + name + ": " + costNanos);
        }
        long left = issuedAt + costNanos - clock.nanoTime();
        if (left > 0) {
            clock.sleepNanos(left);
        }
        return issuedAt;
    }

    @Override
    public String toString() {
        return "resource " + name;
    }
}
