package org.vdpactl.fake.device;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.NodeHolders;
import org.vdpactl.time.Clock;

/**
 * The lifecycle of one /dev/vhost-vdpa-N node: vhost_vdpa_open's single-opener rule (EBUSY while
 * open), release, and vhost_vdpa_remove's wait for the last close before dev_del proceeds.
 *
 * <p>Runs under the device mutex (the vhost device mutex), whose condition wakes a waiting dev_del.
 * Opens by other processes sharing the state file count too ({@link NodeOpeners}).
 */
public final class DeviceNode {
    private static final Logger LOG = LoggerFactory.getLogger(DeviceNode.class);
    /** How often a dev_del asks whether another process closed the node (there is no cross-process wake-up). */
    private static final long OTHER_PROCESS_POLL_MILLIS = 20;

    private final String deviceName;
    private final int minor;
    private final ReentrantLock mutex;
    private final Condition closed;
    private final Clock clock;
    private final NodeOpeners others;
    private boolean opened;
    private boolean removing;
    private long closedAtNanos;
    /** dev_del threads inside the wait for the close (guarded by the mutex): what a test synchronises on, never time. */
    private int removalsWaiting;
    /** How many times a dev_del started waiting for the close (guarded by the mutex): a test hook, like the above. */
    private int removalWaitRounds;

    DeviceNode(String deviceName, int minor, ReentrantLock mutex, Clock clock, NodeOpeners others) {
        this.others = others;
        this.deviceName = deviceName;
        this.minor = minor;
        this.mutex = mutex;
        this.closed = mutex.newCondition();
        this.clock = clock;
    }

    /** The open() half of the single-opener rule: EBUSY when already open (or being removed). */
    public void claim() {
        requireLocked();
        if (opened) {
            throw KernelError.of(Errno.EBUSY, deviceName + ": node already open" + (removing ? " (device being removed)" : ""));
        }
        others.claim(deviceName, minor);
        opened = true;
    }

    /** The release() half: the node is free again; a waiting dev_del proceeds. */
    public void release() {
        requireLocked();
        opened = false;
        closedAtNanos = clock.nanoTime();
        closed.signalAll();
        others.release(deviceName, minor);
    }

    /**
     * dev_del's wait (vhost_vdpa_remove): claims the node for good, waiting as long as it is open.
     * The waiting thread's time continues from the close, as a blocked task's would.
     */
    void claimForRemoval() throws InterruptedException {
        mutex.lock();
        try {
            while (opened) {
                LOG.info("{}: dev_del waits for /dev/vhost-vdpa-{} to be closed", deviceName, minor);
                removalsWaiting++;
                removalWaitRounds++;
                try {
                    closed.await(1, TimeUnit.SECONDS);
                } finally {
                    removalsWaiting--;
                }
                if (!opened) {
                    clock.continueAt(Math.max(clock.nanoTime(), closedAtNanos));
                }
            }
            opened = true;
            removing = true;
        } finally {
            mutex.unlock();
        }
        try {
            waitForOtherProcesses();
        } catch (InterruptedException | RuntimeException e) {
            mutex.lock();
            try {
                opened = false;
                removing = false;
                closed.signalAll();
            } finally {
                mutex.unlock();
            }
            others.removalAbandoned(deviceName, minor);
            throw e;
        }
    }

    /** The rest of vhost_vdpa_remove's wait: the node may be open in another vdpactl process. */
    private void waitForOtherProcesses() throws InterruptedException {
        String announced = null;
        for (Optional<String> holder = others.claimForRemoval(deviceName, minor); holder.isPresent();
             holder = others.claimForRemoval(deviceName, minor)) {
            if (!holder.get().equals(announced)) {
                announced = holder.get();
                LOG.warn("{}: dev_del waits for /dev/vhost-vdpa-{} to be closed by {}", deviceName, minor, announced);
            }
            Thread.sleep(OTHER_PROCESS_POLL_MILLIS);
        }
    }

    /**
     * Who holds the node: another process sharing the state file ("pid N (command)"), or this
     * process itself when one of its own fake processes has it open.
     */
    public Optional<String> holder() {
        mutex.lock();
        try {
            if (opened && !removing) {
                return Optional.of(NodeHolders.describe(ProcessHandle.current().pid()));
            }
        } finally {
            mutex.unlock();
        }
        return others.holder(deviceName, minor);
    }

    /** True while the node is open by a process (not counting dev_del's final claim). */
    public boolean isOpen() {
        mutex.lock();
        try {
            return opened && !removing;
        } finally {
            mutex.unlock();
        }
    }

    /** True while a dev_del is parked in the wait for this node's close (a test hook: it changes nothing). */
    public boolean removalWaitsForClose() {
        mutex.lock();
        try {
            return removalsWaiting > 0;
        } finally {
            mutex.unlock();
        }
    }

    /** How many times a dev_del has started waiting for this node's close (a test hook: it changes nothing). */
    int removalWaitRounds() {
        mutex.lock();
        try {
            return removalWaitRounds;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Wakes a waiting dev_del without a close, as {@link Condition#await} may wake spuriously or time out: the wait
     * must look again and go on waiting while the node is open (a test hook).
     */
    void wakeWithoutClose() {
        mutex.lock();
        try {
            closed.signalAll();
        } finally {
            mutex.unlock();
        }
    }

    private void requireLocked() {
        if (!mutex.isHeldByCurrentThread()) {
            throw new IllegalStateException("node op on " + deviceName + " without the device mutex");
        }
    }
}
