package org.vdpactl.fake.state;

import java.nio.file.Path;

/**
 * What a lock waiter reads to decide whether the queue moves: the time, and what the holder process's
 * threads did ({@link HolderActivity}: ran, waited for a CPU, waited for I/O). A waiter gives up on a
 * holder that neither changes nor works for the whole timeout; tests give it a watch they move
 * themselves, so the decision does not depend on how busy the machine is.
 */
interface HolderWatch {
    /** The system's monotonic clock and the kernel's account of the holder's CPU time. */
    HolderWatch SYSTEM = new HolderWatch() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public HolderActivity activityOf(long pid) {
            // this process's other threads say nothing about the holder thread among them
            return pid == ProcessHandle.current().pid() ? HolderActivity.UNKNOWN : ProcTaskAccounts.SYSTEM.of(pid);
        }
    };

    /** Monotonic time in nanoseconds. */
    long nanoTime();

    /** What the kernel accounts to process {@code pid}'s threads now; {@link HolderActivity#UNKNOWN} for this process. */
    HolderActivity activityOf(long pid);

    /**
     * The pid holding a lock on {@code lockFile} as the kernel lists it ({@link LockHolders}): tests replace it to
     * make the listing miss a holder, as a read of /proc/locks does while other processes take and drop locks.
     */
    default long pidHolding(Path lockFile) {
        return LockHolders.pidHolding(lockFile);
    }
}
