package org.vdpactl.time;

/**
 * Deterministic simulated time, one timeline per thread.
 *
 * <p>Each thread starts at the time of the clock's creation (0 by default) the first time it asks.
 * {@link #sleepNanos} advances only the calling thread. Shared resources ({@link Resource}) hold a
 * "busy until" mark so two threads using one device queue behind each other in simulated time.
 */
public final class VirtualClock implements Clock {
    private final long origin;
    private final ThreadLocal<long[]> now;

    public VirtualClock() {
        this(0L);
    }

    public VirtualClock(long originNanos) {
        this.origin = originNanos;
        this.now = ThreadLocal.withInitial(() -> new long[] {origin});
    }

    @Override
    public long nanoTime() {
        return now.get()[0];
    }

    @Override
    public void sleepNanos(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("negative sleep: " + nanos);
        }
        now.get()[0] += nanos;
    }

    @Override
    public void continueAt(long nanoTime) {
        now.get()[0] = nanoTime;
    }

    @Override
    public boolean isVirtual() {
        return true;
    }

    @Override
    public String toString() {
        return "virtual";
    }
}
