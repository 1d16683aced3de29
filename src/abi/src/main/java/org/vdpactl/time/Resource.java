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
    /** The most {@link #workSince} takes off a call for the previous sleep's late wake-up. */
    static final long MAX_CARRY_NANOS = 100_000;
    /** Real clock: how late the last sleep of {@link #workSince} woke (used under the owner's lock). */
    private long lateBy;

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
     * bookkeeping, which the cost already includes as host work) is not charged twice, and a late
     * wake-up of the previous call (timer slack, up to {@link #MAX_CARRY_NANOS}) is taken off this
     * one. Virtual clock: exactly {@link #work}.
     */
    public long workSince(long issuedAt, long costNanos) {
        if (clock.isVirtual()) {
            return work(costNanos);
        }
        if (costNanos < 0) {
            throw new IllegalArgumentException("negative cost on " + name + ": " + costNanos);
        }
        // a sleep wakes up to the timer slack (50 us on Linux) late; the next work on this resource is
        // that much shorter, so a run of short calls costs the sum of the model, not of the slack.
        // At most MAX_CARRY_NANOS is made up for: waking later than that is waiting for a CPU, which stays measured.
        long deadline = issuedAt + costNanos - Math.min(Math.min(lateBy, MAX_CARRY_NANOS), costNanos);
        lateBy = 0;
        long left = deadline - clock.nanoTime();
        if (left > 0) {
            clock.sleepNanos(left);
            lateBy = Math.max(0, clock.nanoTime() - deadline);
        }
        return issuedAt;
    }

    @Override
    public String toString() {
        return "resource " + name;
    }
}
