package org.vdpactl.fake.state;

import java.util.Map;

/**
 * What the kernel has accounted to a lock holder's threads at one look: per thread, the time it ran plus the time it
 * waited on a run queue for a CPU (nanoseconds), and whether one of its threads is blocked in the kernel on I/O now
 * (state D). A waiter compares two looks: a holder that runs, waits for a CPU or waits for the disk is slow, not
 * stuck. Counting CPU time alone took slow holders for stuck ones: 64 JVMs starting on two CPUs each get a few per
 * cent of one, and a holder's fsync behind gigabytes of dirty pages (a CI machine right after a build) blocks for
 * seconds without running at all; its waiters gave up after 10 s (CI run of 1ddc022, scripts/check-concurrency 64).
 *
 * @param busyNanosByThread each thread's run plus run-queue time, by thread id; empty when unknown
 * @param inIoWait          whether a thread was in state D (uninterruptible, mostly I/O) at the look
 */
record HolderActivity(Map<Long, Long> busyNanosByThread, boolean inIoWait) {
    /** Nothing known (no such process, no /proc, or the holder is this process). */
    static final HolderActivity UNKNOWN = new HolderActivity(Map.of(), false);

    HolderActivity {
        busyNanosByThread = Map.copyOf(busyNanosByThread);
    }

    boolean known() {
        return !busyNanosByThread.isEmpty();
    }

    /**
     * Run and run-queue time used since {@code earlier}, summed over the threads seen now: a thread that ended
     * meanwhile takes its time with it (a sum over all threads would go backwards), a new thread counts whole.
     */
    long busySince(HolderActivity earlier) {
        long sum = 0;
        for (Map.Entry<Long, Long> t : busyNanosByThread.entrySet()) {
            sum += Math.max(0, t.getValue() - earlier.busyNanosByThread.getOrDefault(t.getKey(), 0L));
        }
        return sum;
    }
}
