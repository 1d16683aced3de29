package org.vdpactl.time;

import java.util.concurrent.locks.LockSupport;

/** Wall-clock monotonic time; sleeping really waits. */
public final class RealClock implements Clock {
    public static final RealClock INSTANCE = new RealClock();

    private RealClock() {
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public void sleepNanos(long nanos) {
        long deadline = System.nanoTime() + nanos;
        long left = nanos;
        while (left > 0) {
            LockSupport.parkNanos(left);
            left = deadline - System.nanoTime();
        }
    }

    @Override
    public void continueAt(long nanoTime) {
        // real time has already moved on; nothing to align
    }

    @Override
    public boolean isVirtual() {
        return false;
    }

    @Override
    public String toString() {
        return "real";
    }
}
