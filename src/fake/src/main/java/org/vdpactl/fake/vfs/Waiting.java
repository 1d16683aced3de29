package org.vdpactl.fake.vfs;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.function.BooleanSupplier;

import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.sys.Errno;
import org.vdpactl.time.Clock;

/**
 * Blocking for the fake's files (eventfd reads, pipes, poll). On the real clock it waits for real;
 * on a virtual clock a bounded wait that nothing satisfies just moves the caller's time by the
 * timeout and returns (so a test never sleeps), and an unbounded wait waits for another thread.
 */
public final class Waiting {
    private Waiting() {
    }

    /**
     * Waits on {@code changed} (whose lock the caller holds) until {@code ready} or the timeout.
     *
     * @param timeoutMillis negative = forever
     * @return whether {@code ready} holds at return
     */
    public static boolean await(Condition changed, BooleanSupplier ready, long timeoutMillis, Clock clock) {
        if (ready.getAsBoolean()) {
            return true;
        }
        if (timeoutMillis == 0) {
            return false;
        }
        if (timeoutMillis > 0 && clock.isVirtual()) {
            clock.sleepNanos(TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
            return ready.getAsBoolean();
        }
        long deadline = timeoutMillis < 0 ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        try {
            while (!ready.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                changed.awaitNanos(Math.min(left, TimeUnit.SECONDS.toNanos(1)));
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw KernelError.of(Errno.EINTR, "interrupted while blocked");
        }
    }
}
