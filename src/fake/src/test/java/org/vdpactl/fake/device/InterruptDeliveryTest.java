package org.vdpactl.fake.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.bus.Provisioning;
import org.vdpactl.fake.inside.FakeInside;

/**
 * Interrupts a device raises under its mutex are delivered after the mutex is released, by whoever released it,
 * each exactly once: the releaser of every IOTLB write and open asks for them without taking the mutex when nothing
 * was raised, and that shortcut must not lose or repeat one when raisers and deliverers run at once.
 */
class InterruptDeliveryTest {
    private static final int RAISERS = 3;
    private static final int DELIVERERS = 2;
    private static final int RAISES_PER_THREAD = 20_000;

    @Test
    void interruptsRaisedUnderTheMutexAreDeliveredOnceAfterItsRelease() {
        try (FakeKernel k = FakeKernel.builder().build()) {
            FakeVdpaDevice d = FakeInside.addDevice(k, "vdpasim_net", "irq0", Provisioning.NONE);
            List<Boolean> mutexLockedAtDelivery = new CopyOnWriteArrayList<>();
            Runnable interrupt = () -> mutexLockedAtDelivery.add(d.mutex().isLocked());
            d.deliverInterrupts(); // nothing raised yet
            assertEquals(List.of(), mutexLockedAtDelivery);

            d.mutex().lock();
            try {
                d.raise(interrupt);
                d.raise(null); // no callback installed: nothing to deliver
                d.raise(interrupt);
                d.deliverInterrupts(); // the holder asks: kept until the mutex is released
                assertEquals(List.of(), mutexLockedAtDelivery, "delivered under the mutex");
            } finally {
                d.mutex().unlock();
            }
            d.deliverInterrupts();
            assertEquals(List.of(false, false), mutexLockedAtDelivery, "the releaser delivers both, outside the mutex");
            d.deliverInterrupts();
            assertEquals(2, mutexLockedAtDelivery.size(), "an interrupt was delivered twice");

            d.mutex().lock();
            try {
                d.raise(interrupt); // raised again after a delivery emptied the queue
            } finally {
                d.mutex().unlock();
            }
            d.deliverInterrupts();
            assertEquals(List.of(false, false, false), mutexLockedAtDelivery,
                    "an interrupt raised later was lost, or an earlier one delivered again");
        }
    }

    /**
     * Raisers raise one interrupt per critical section and deliver after each release while other threads deliver
     * all the time. No final delivery at the end: each releaser's own call must have taken its interrupt or seen that
     * someone else did.
     */
    @Test
    void concurrentRaisersAndDeliverersLoseNothingAndDeliverNothingTwice() throws Exception {
        try (FakeKernel k = FakeKernel.builder().build()) {
            FakeVdpaDevice d = FakeInside.addDevice(k, "vdpasim_net", "irq1", Provisioning.NONE);
            AtomicIntegerArray deliveries = new AtomicIntegerArray(RAISERS * RAISES_PER_THREAD);
            AtomicIntegerArray sectionOpen = new AtomicIntegerArray(RAISERS * RAISES_PER_THREAD);
            AtomicBoolean deliveredBeforeRelease = new AtomicBoolean();
            AtomicBoolean raisersDone = new AtomicBoolean();
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> raisers = new ArrayList<>();
            List<Future<?>> deliverers = new ArrayList<>();
            try (ExecutorService pool = Executors.newFixedThreadPool(RAISERS + DELIVERERS)) {
                for (int t = 0; t < DELIVERERS; t++) {
                    deliverers.add(pool.submit(() -> {
                        start.await();
                        while (!raisersDone.get()) {
                            d.deliverInterrupts();
                            Thread.onSpinWait();
                        }
                        return null;
                    }));
                }
                for (int t = 0; t < RAISERS; t++) {
                    int first = t * RAISES_PER_THREAD;
                    raisers.add(pool.submit(() -> {
                        start.await();
                        for (int id = first; id < first + RAISES_PER_THREAD; id++) {
                            int mine = id;
                            d.mutex().lock();
                            try {
                                sectionOpen.set(mine, 1);
                                d.raise(() -> {
                                    if (sectionOpen.get(mine) == 1) {
                                        deliveredBeforeRelease.set(true);
                                    }
                                    deliveries.incrementAndGet(mine);
                                });
                                sectionOpen.set(mine, 0);
                            } finally {
                                d.mutex().unlock();
                            }
                            d.deliverInterrupts();
                        }
                        return null;
                    }));
                }
                start.countDown();
                try {
                    for (Future<?> f : raisers) {
                        f.get(120, TimeUnit.SECONDS);
                    }
                } finally {
                    raisersDone.set(true);
                }
                for (Future<?> f : deliverers) {
                    f.get(120, TimeUnit.SECONDS);
                }
            }
            List<String> wrong = new ArrayList<>();
            for (int id = 0; id < deliveries.length() && wrong.size() < 5; id++) {
                if (deliveries.get(id) != 1) {
                    wrong.add("interrupt " + id + " delivered " + deliveries.get(id) + " times");
                }
            }
            assertEquals(List.of(), wrong);
            assertFalse(deliveredBeforeRelease.get(), "an interrupt was delivered while its raiser still held the mutex");
        }
    }
}
