package org.vdpactl.fake.state;

import java.nio.file.Path;

/**
 * What a lock waiter reads to decide whether the queue moves: the time, and how much CPU the holder
 * process has used. A waiter gives up on a holder that neither changes nor works for the whole
 * timeout; tests give it a watch they move themselves, so the decision does not depend on how busy
 * the machine is.
 */
interface HolderWatch {
    /** The system's monotonic clock and the kernel's account of the holder's CPU time. */
    HolderWatch SYSTEM = new HolderWatch() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long cpuNanosOf(long pid) {
            return HolderInfo.cpuNanosOf(pid);
        }
    };

    /** Monotonic time in nanoseconds. */
    long nanoTime();

    /** CPU time the process {@code pid} has used, in nanoseconds, or -1 when unknown (or this process). */
    long cpuNanosOf(long pid);

    /**
     * The pid holding a lock on {@code lockFile} as the kernel lists it ({@link LockHolders}): tests replace it to
     * make the listing miss a holder, as a read of /proc/locks does while other processes take and drop locks.
     */
    default long pidHolding(Path lockFile) {
        return LockHolders.pidHolding(lockFile);
    }
}
