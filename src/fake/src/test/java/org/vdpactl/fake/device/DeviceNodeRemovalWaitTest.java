package org.vdpactl.fake.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.vdpactl.time.VirtualClock;

/**
 * dev_del waits for the node's last close as long as it takes (vhost_vdpa_remove's wait_for_completion has no
 * timeout): a wake-up without a close (a spurious one, or the wait's periodic look) makes it look again, never
 * give up and remove a node that is still open. Synchronised on the node's own state, never on time.
 */
class DeviceNodeRemovalWaitTest {
    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "never happened: " + what);
            Thread.sleep(1);
        }
    }

    @Test
    void aWakeUpWithoutACloseKeepsTheRemovalWaitingUntilTheClose() throws Exception {
        ReentrantLock mutex = new ReentrantLock();
        DeviceNode node = new DeviceNode("vdpa0", 0, mutex, new VirtualClock(), NodeOpeners.LOCAL);
        mutex.lock();
        try {
            node.claim();
        } finally {
            mutex.unlock();
        }
        CompletableFuture<Void> removal = CompletableFuture.runAsync(() -> {
            try {
                node.claimForRemoval();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            await(node::removalWaitsForClose, "dev_del waits for the close");
            node.wakeWithoutClose();
            // either the wait looked again and waits on (a second round), or it gave up (the removal finished)
            await(() -> node.removalWaitRounds() >= 2 || removal.isDone(), "dev_del looked again after the wake-up");
            assertFalse(removal.isDone(), "dev_del gave up waiting and removed a node that is still open");
            assertTrue(node.isOpen(), "the node is still the opener's");
        } finally {
            mutex.lock();
            try {
                node.release();
            } finally {
                mutex.unlock();
            }
        }
        removal.get(30, TimeUnit.SECONDS);
        assertFalse(node.isOpen(), "after the close dev_del holds the node for removal");
        assertEquals(true, node.removalWaitRounds() >= 2);
    }
}
