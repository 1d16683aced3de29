package org.vdpactl.orchestra;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.vdpactl.time.Clock;

/**
 * Platform threads, one per lane: a vhost-vdpa ioctl or IOTLB write blocks its thread in the kernel
 * for as long as the driver works, so overlapping devices needs as many threads as devices (virtual
 * threads would pin their carrier in the ioctl anyway). Fans work out and joins it, carrying the
 * clock across: each task continues at the fan-out time and the caller at the latest task end,
 * which keeps a {@link org.vdpactl.time.VirtualClock} exact.
 */
final class LanePool implements AutoCloseable {
    private final Clock clock;
    private final ExecutorService executor;

    LanePool(Clock clock, int threads) {
        this.clock = clock;
        AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = Thread.ofPlatform().name("vdpactl-lane-" + n.incrementAndGet()).daemon(true).unstarted(r);
            return t;
        };
        this.executor = Executors.newFixedThreadPool(Math.max(1, threads), factory);
    }

    /**
     * Runs {@code work} for every item at once and waits for all. The first exception any item threw
     * is rethrown after every item finished (the others attached as suppressed).
     */
    <T> void forEach(List<T> items, Consumer<T> work) {
        long start = clock.nanoTime();
        List<Future<Long>> futures = new ArrayList<>(items.size());
        for (T item : items) {
            futures.add(executor.submit(() -> {
                clock.continueAt(start);
                work.accept(item);
                return clock.nanoTime();
            }));
        }
        long end = start;
        RuntimeException failure = null;
        for (Future<Long> f : futures) {
            try {
                end = Math.max(end, join(f));
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        clock.continueAt(Math.max(end, clock.nanoTime()));
        if (failure != null) {
            throw failure;
        }
    }

    private static long join(Future<Long> f) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return f.get();
                } catch (InterruptedException e) {
                    // the task is inside a kernel call that cannot be abandoned half-way: wait it out
                    interrupted = true;
                }
            }
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(c);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits for running tasks and stops every thread. */
    @Override
    public void close() {
        executor.close();
    }
}
