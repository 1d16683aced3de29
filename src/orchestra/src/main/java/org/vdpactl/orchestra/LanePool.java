package org.vdpactl.orchestra;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.vdpactl.time.Clock;

/**
 * Platform threads, one per lane: a vhost-vdpa ioctl or IOTLB write blocks its thread in the kernel
 * for as long as the driver works, so overlapping devices needs as many threads as devices (virtual
 * threads would pin their carrier in the ioctl anyway). Fans work out and joins it, carrying the
 * clock across: each task continues at the fan-out time and the caller at the latest task end,
 * which keeps a {@link org.vdpactl.time.VirtualClock} exact.
 *
 * <p>Each worker owns one slot, so handing out work takes no shared queue: an executor's queue woke
 * its workers one after another (each taker signals the next under the queue lock), and at 64
 * devices the last device of a phase started milliseconds after the first. Here the caller fills
 * every slot and wakes worker 0; each worker wakes its two children (2i+1, 2i+2) before it starts
 * its own task, so the wake-ups spread over a tree of depth log2(n) and over every CPU. The join is
 * a countdown: only the worker that finishes last wakes the caller.
 */
final class LanePool implements AutoCloseable {
    private final Clock clock;
    private final List<Worker> workers = new ArrayList<>();
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger remaining = new AtomicInteger();
    /** Workers taking part in the current fan-out (the wake tree covers 0..active-1). */
    private volatile int active;
    /**
     * Bumped once every slot of a fan-out is filled: a worker takes its task only for a generation
     * it has not served yet, so a worker woken early (spuriously, or by a stale permit) never runs
     * ahead of the assignments and never wakes a child whose slot is still empty.
     */
    private volatile long generation;
    private volatile Thread caller;
    private volatile boolean closed;

    LanePool(Clock clock, int threads) {
        this.clock = clock;
        if (threads < 1) {
            throw new IllegalArgumentException("a lane pool needs at least one thread: " + threads);
        }
    }

    /**
     * Runs {@code work} for every item at once (item i on worker i) and waits for all. The first
     * exception any item threw is rethrown after every item finished (the others attached as
     * suppressed). Not reentrant: one fan-out at a time, from one caller.
     */
    <T> void forEach(List<T> items, Consumer<T> work) {
        if (closed) {
            throw new IllegalStateException("lane pool closed");
        }
        int n = items.size();
        if (n == 0) {
            return;
        }
        long start = clock.nanoTime();
        while (workers.size() < n) {
            workers.add(new Worker(workers.size()));
        }
        caller = Thread.currentThread();
        remaining.set(n);
        active = n;
        for (int i = 0; i < n; i++) {
            T item = items.get(i);
            workers.get(i).assign(start, () -> work.accept(item));
        }
        generation++; // publishes the slots (only this thread writes it)
        workers.get(0).wake();
        awaitAll();
        long end = start;
        Throwable failure = null;
        for (int i = 0; i < n; i++) {
            Worker w = workers.get(i);
            end = Math.max(end, w.end);
            if (w.failure != null) {
                if (failure == null) {
                    failure = w.failure;
                } else {
                    failure.addSuppressed(w.failure);
                }
                w.failure = null;
            }
        }
        clock.continueAt(Math.max(end, clock.nanoTime()));
        if (failure instanceof RuntimeException r) {
            throw r;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    /** Parks until the last task ended; an interrupt is kept for later (a task inside a kernel call cannot be abandoned). */
    private void awaitAll() {
        boolean interrupted = false;
        while (remaining.get() > 0) {
            LockSupport.park(this);
            if (Thread.interrupted()) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    Clock clock() {
        return clock;
    }

    /** Threads started so far (tests: one per lane, never one per call). */
    int threadsStarted() {
        return started.get();
    }

    /** Waits for running tasks and stops every thread. */
    @Override
    public void close() {
        closed = true;
        for (Worker w : workers) {
            LockSupport.unpark(w.thread);
        }
        boolean interrupted = false;
        for (Worker w : workers) {
            while (w.thread.isAlive()) {
                try {
                    w.thread.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** One platform thread and its slot. */
    private final class Worker implements Runnable {
        private final int index;
        private final Thread thread;
        /** The next task; set by the caller before it publishes the generation, taken by this worker. */
        private Runnable task;
        private long served;
        private long startAt;
        /** Clock time at the end of the last task, and what it threw; read by the caller after the countdown. */
        private long end;
        private Throwable failure;

        Worker(int index) {
            this.index = index;
            this.served = generation; // created by the caller between fan-outs: it serves the next one
            this.thread = Thread.ofPlatform().name("vdpactl-lane-" + (index + 1)).daemon(true).unstarted(this);
            thread.start();
            started.incrementAndGet();
        }

        void assign(long start, Runnable r) {
            this.startAt = start;
            this.task = r;
        }

        void wake() {
            LockSupport.unpark(thread);
        }

        @Override
        public void run() {
            while (true) {
                long g = generation;
                if (g == served || index >= active) {
                    if (closed) {
                        return;
                    }
                    LockSupport.park(this);
                    continue;
                }
                served = g;
                Runnable r = task;
                task = null;
                wakeChildren();
                runOne(r);
                if (remaining.decrementAndGet() == 0) {
                    LockSupport.unpark(caller);
                }
            }
        }

        private void wakeChildren() {
            int n = active;
            for (int c = 2 * index + 1; c <= 2 * index + 2 && c < n; c++) {
                workers.get(c).wake();
            }
        }

        private void runOne(Runnable r) {
            clock.continueAt(startAt);
            try {
                r.run();
            } catch (Throwable t) {
                failure = t;
            }
            end = clock.nanoTime();
        }
    }
}
