package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.time.VirtualClock;

/**
 * A stop request (the CLI's SIGINT or SIGTERM) that comes while a window runs is heard whichever window it is:
 * the window runs to its end (the safe point), and the rehearsal ends INTERRUPTED, the last window too. The
 * request is raised from the listener when the window is done, before the rehearsal looks again: no timing.
 */
class StopRequestTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void aRequestDuringTheFirstWindowEndsInterruptedAfterIt(int iterations) {
        AtomicBoolean requested = new AtomicBoolean();
        RehearsalResult r = rehearse(iterations, requested, new RehearsalListener() {
            @Override
            public void windowDone(int index) {
                requested.set(true);
            }
        });
        assertEquals(RehearsalResult.Outcome.INTERRUPTED, r.outcome(), "iterations " + iterations);
        assertEquals(1, r.iterationsRun());
        assertEquals(1, r.statistics().count(), "the window that ran counts");
        r.devices().forEach(d -> assertEquals(DeviceState.RUNNING, d.state(), d.toString()));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aRequestDuringTheLastWindowIsNotSwallowed(int iterations) {
        AtomicBoolean requested = new AtomicBoolean();
        RehearsalResult r = rehearse(iterations, requested, new RehearsalListener() {
            @Override
            public void windowDone(int index) {
                if (index == iterations - 1) {
                    requested.set(true);
                }
            }
        });
        assertEquals(RehearsalResult.Outcome.INTERRUPTED, r.outcome(), "iterations " + iterations);
        assertEquals(iterations, r.iterationsRun());
        r.devices().forEach(d -> assertEquals(DeviceState.RUNNING, d.state(), d.toString()));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void noRequestCompletes(int iterations) {
        RehearsalResult r = rehearse(iterations, new AtomicBoolean(), new RehearsalListener() { });
        assertEquals(RehearsalResult.Outcome.COMPLETED, r.outcome());
    }

    private static RehearsalResult rehearse(int iterations, AtomicBoolean requested, RehearsalListener listener) {
        Inventory inv = new Inventory(List.of(new Inventory.Mgmt("mlx5", "pci", "0000:08:00.2", null)),
                List.of(new Inventory.Device("mlx5-0", "pci/0000:08:00.2", null, null, 1, null, null, null)));
        try (FakeKernel k = FakeInside.inventory(FakeKernel.builder().kernel("6.12"), inv).build();
             FakeProcess p = k.newProcess()) {
            return new Rehearsal(p, new VirtualClock()).listener(listener).stopWhen(requested::get)
                    .run(RehearsalPlan.builder(List.of(new DeviceTarget("mlx5-0", "/dev/vhost-vdpa-0")))
                            .memory(GuestMemoryLayout.of(64L << 20, 64L << 20, 4096, true)).iterations(iterations).build());
        }
    }
}
