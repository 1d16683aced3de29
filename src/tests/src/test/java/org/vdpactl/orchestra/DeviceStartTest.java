package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.time.VirtualClock;

/**
 * What every device start of the rehearsal does, as QEMU's vhost_net_start / vhost_dev_start do:
 * the call eventfd of every virtqueue bound before SET_FEATURES, the backend features read and
 * acked again after FEATURES_OK, every virtqueue's kick bound with its vring. Every strategy.
 */
class DeviceStartTest {

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void everyStartBindsTheNotifiersOfEveryVirtqueueAndAcksTheBackendFeaturesAgain(Strategy strategy) {
        Inventory inv = new Inventory(List.of(new Inventory.Mgmt("vdpasim_net", null, "vdpasim_net", null)),
                List.of(new Inventory.Device("vdpa0", "vdpasim_net", "02:00:00:00:00:01", null, null, null, null, null)));
        try (FakeKernel k = FakeInside.inventory(FakeKernel.builder().kernel("6.12"), inv).build(); FakeProcess p = k.newProcess()) {
            RehearsalResult r = new Rehearsal(p, new VirtualClock()).run(RehearsalPlan.builder(List.of(
                    new DeviceTarget("vdpa0", "/dev/vhost-vdpa-0"))).strategy(strategy)
                    .memory(GuestMemoryLayout.of(64L << 20, 64L << 20, 4096, true)).build());
            assertTrue(r.completed(), String.valueOf(r.failure()));
            List<String> configure = r.lastIteration().spans().stream().filter(s -> s.phase() == Phase.CONFIGURE).map(Span::call).toList();
            int features = configure.indexOf("VHOST_SET_FEATURES");
            for (int vq = 0; vq < 3; vq++) {
                String call = "VHOST_SET_VRING_CALL vq" + vq;
                assertEquals(1, configure.stream().filter(call::equals).count(), call + " once per start: " + configure);
                assertTrue(strategy.shadowed() || configure.indexOf(call) < features, call + " before the features: " + configure);
                assertEquals(1, configure.stream().filter(("VHOST_SET_VRING_KICK vq" + vq)::equals).count(), configure.toString());
            }
            int ok = configure.indexOf("VHOST_VDPA_GET_STATUS (after FEATURES_OK)");
            assertEquals(List.of("VHOST_GET_BACKEND_FEATURES", "VHOST_SET_BACKEND_FEATURES"), configure.subList(ok + 1, ok + 3),
                    "the backend features acked again right after FEATURES_OK: " + configure);
        }
    }
}
