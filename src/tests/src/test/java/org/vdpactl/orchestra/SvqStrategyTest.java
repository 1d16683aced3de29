package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.device.DeviceProfile;
import org.vdpactl.fake.device.FakeVdpaDevice;
import org.vdpactl.fake.device.ProfileCatalog;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.fake.vhost.VhostVdpaDriver;
import org.vdpactl.time.VirtualClock;

/**
 * {@code --strategy svq} on the fake's vdpa_sim of every kernel profile, on vdpa_sim blk (one
 * address space) and on mlx5: the control queue in address space 1 while the device runs unshadowed,
 * the destination started on shadow vrings mapped one update per ring area above the guest memory,
 * every device back on its own rings after each restore.
 */
class SvqStrategyTest {
    private static final GuestMemoryLayout MEMORY = GuestMemoryLayout.of(64L << 20, 64L << 20, 4096, true);
    private static final long SHADOW_IOVA = 64L << 20;
    /** d0's control queue: ring space from 1 MiB, after two data rings and their two shadow rings (3 pages each). */
    private static final long CVQ_IOVA = (1L << 20) + 4 * 3 * 4096;

    /** The result, and per device what the fake kernel holds once the rehearsal has restored it. */
    record Run(RehearsalResult result, Map<String, Integer> cvqGroupAsid, Map<String, Long> shadowEntries) {
    }

    private static Run rehearse(String kernel, String mgmt, boolean split, int iterations) {
        boolean net = mgmt.endsWith("net");
        Inventory inv = new Inventory(List.of(new Inventory.Mgmt(mgmt, null, mgmt, null)),
                List.of(new Inventory.Device("d0", mgmt, net ? "02:00:00:00:00:10" : null, null, null, null, null, null),
                        new Inventory.Device("d1", mgmt, net ? "02:00:00:00:00:11" : null, null, null, null, null, null)));
        try (FakeKernel k = FakeInside.inventory(FakeKernel.builder().kernel(kernel), inv).build(); FakeProcess p = k.newProcess()) {
            List<DeviceTarget> all = List.of(new DeviceTarget("d0", "/dev/vhost-vdpa-0"), new DeviceTarget("d1", "/dev/vhost-vdpa-1"));
            RehearsalPlan.Builder b = split ? RehearsalPlan.builder(all.subList(0, 1)).destinations(all.subList(1, 2))
                    : RehearsalPlan.builder(all);
            Map<String, Integer> asids = new TreeMap<>();
            Map<String, Long> shadow = new TreeMap<>();
            RehearsalResult r = new Rehearsal(p, new VirtualClock()).listener(new RehearsalListener() {
                @Override
                public void beforeClose(List<DeviceReport> devices) {
                    for (DeviceReport d : devices) {
                        FakeVdpaDevice dev = FakeInside.device(k, d.name()).orElseThrow();
                        asids.put(d.name(), dev.groupAsid(dev.vqGroup(dev.nvqs() - 1)));
                        shadow.put(d.name(), VhostVdpaDriver.of(k).vhost(dev).iotlbEntries(0).stream()
                                .filter(e -> e.iova() >= SHADOW_IOVA).count());
                    }
                }
            }).run(b.strategy(Strategy.SVQ).memory(MEMORY).iterations(iterations).build());
            return new Run(r, asids, shadow);
        }
    }

    private static List<String> calls(List<Span> spans, Phase phase, String device) {
        return spans.stream().filter(s -> s.phase() == phase && s.device().equals(device)).map(Span::call).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"6.1", "6.12", "7.2"})
    void vdpaSimNetIsolatesItsControlQueueAndStartsOnShadowRings(String kernel) {
        Run run = rehearse(kernel, "vdpasim_net", false, 2);
        RehearsalResult r = run.result();
        assertTrue(r.completed(), String.valueOf(r.failure()));
        List<String> setup = r.setupSpans().stream().filter(s -> s.device().equals("d0")).map(Span::call).toList();
        assertTrue(setup.contains("VHOST_VDPA_SET_GROUP_ASID group 1 asid 1"), "the CVQ's group in ASID 1: " + setup);
        assertTrue(setup.stream().anyMatch(c -> c.startsWith("write IOTLB UPDATE asid 1 ")), setup.toString());
        List<Span> window = r.lastIteration().spans();
        List<String> configure = calls(window, Phase.CONFIGURE, "d0");
        // 6.1's vdpa_sim lacks ENABLE_AFTER_DRIVER_OK: each vring is enabled with its set-up; 6.12 and 7.2 offer
        // it, so the vrings are enabled after DRIVER_OK as QEMU 10.0 does: the CVQ, then (after the CVQ MQ
        // command) the data queues
        boolean late = !kernel.equals("6.1");
        List<String> shadowed = new ArrayList<>(List.of("VHOST_SET_VRING_NUM vq0", "VHOST_SET_VRING_BASE vq0",
                "VHOST_SET_VRING_KICK vq0", "VHOST_SET_VRING_CALL vq0", "write IOTLB UPDATE asid 0 iova 0x" + Long.toHexString(SHADOW_IOVA),
                "write IOTLB UPDATE asid 0 iova 0x" + Long.toHexString(SHADOW_IOVA + 8192), "VHOST_SET_VRING_ADDR vq0"));
        if (!late) {
            shadowed.add("VHOST_VDPA_SET_VRING_ENABLE vq0");
        }
        assertEquals(shadowed, configure.subList(configure.indexOf("VHOST_SET_VRING_NUM vq0"),
                configure.indexOf("VHOST_SET_VRING_NUM vq1")), "a shadowed data vring: " + configure);
        List<String> driverOk = calls(window, Phase.DRIVER_OK, "d0");
        List<String> cvqMq = calls(window, Phase.CVQ_MQ, "d0");
        if (late) {
            // the lane's vdpasim_net: one queue pair, its control queue is vq2 (no MQ command to send)
            assertEquals("VHOST_VDPA_SET_VRING_ENABLE vq2", driverOk.get(driverOk.size() - 1), "the CVQ enabled after DRIVER_OK: " + driverOk);
            assertEquals(List.of("VHOST_VDPA_SET_VRING_ENABLE vq0", "VHOST_VDPA_SET_VRING_ENABLE vq1"), cvqMq,
                    "the data queues after the CVQ's state load: " + cvqMq);
        } else {
            assertTrue(Stream.concat(driverOk.stream(), cvqMq.stream()).noneMatch(c -> c.contains("ENABLE")),
                    "no enable after DRIVER_OK without ENABLE_AFTER_DRIVER_OK: " + driverOk + cvqMq);
        }
        assertFalse(configure.stream().anyMatch(c -> c.startsWith("VHOST_VDPA_SET_GROUP_ASID")),
                "shadowed, every vring shares address space 0: " + configure);
        List<String> reset = calls(window, Phase.RESET, "d0");
        assertTrue(reset.contains("write IOTLB INVALIDATE asid 1 iova 0x" + Long.toHexString(CVQ_IOVA)),
                "the CVQ's own address space unmapped after the reset: " + reset);
        for (DeviceReport d : r.devices()) {
            assertEquals(DeviceState.RUNNING, d.state(), d.toString());
        }
        assertEquals(Map.of("d0", 1, "d1", 1), run.cvqGroupAsid(), "restored: the CVQ back in its own address space");
        assertEquals(Map.of("d0", 0L, "d1", 0L), run.shadowEntries(), "restored: no shadow ring left mapped");
    }

    /** vdpasim_net with one address space: a driver that cannot give its control queue an address space of its own. */
    private static DeviceProfile oneAddressSpace() {
        DeviceProfile p = ProfileCatalog.load("vdpasim_net");
        DeviceProfile.Device d = p.device();
        return new DeviceProfile("onesim", new DeviceProfile.Mgmt(null, "onesim", p.mgmtdev().classes(),
                p.mgmtdev().maxSupportedVqs(), p.mgmtdev().maxVqPairs(), p.mgmtdev().supportedFeatures(),
                p.mgmtdev().provisionableAttributes(), 0, "free", null), d.withDriverFacts(d.groups(), 1, d.driverFacts()));
    }

    @Test
    void aDeviceWithOneAddressSpaceKeepsItsControlQueueInAsidZeroAndSaysWhy() {
        Inventory inv = new Inventory(List.of(new Inventory.Mgmt("onesim", null, "onesim", null)),
                List.of(new Inventory.Device("o0", "onesim", "02:00:00:00:00:20", null, null, null, null, null)));
        try (FakeKernel k = FakeInside.inventory(FakeInside.profile(FakeKernel.builder(), oneAddressSpace()), inv).build(); FakeProcess p = k.newProcess()) {
            RehearsalResult r = new Rehearsal(p, new VirtualClock()).run(RehearsalPlan.builder(List.of(
                    new DeviceTarget("o0", "/dev/vhost-vdpa-0"))).strategy(Strategy.SVQ).memory(MEMORY).iterations(2).build());
            assertTrue(r.completed(), String.valueOf(r.failure()));
            assertEquals(List.of("o0: the control queue stays in address space 0 (the device has 1 address space), where QEMU"
                    + " leaves it too (net/vhost-vdpa.c vhost_vdpa_net_cvq_start)"), r.notes());
            assertFalse(r.setupSpans().stream().anyMatch(s -> s.call().startsWith("VHOST_VDPA_SET_GROUP_ASID")));
            assertTrue(calls(r.lastIteration().spans(), Phase.CONFIGURE, "o0").contains("write IOTLB UPDATE asid 0 iova 0x"
                    + Long.toHexString(SHADOW_IOVA)), "the data vrings are shadowed all the same");
        }
    }

    @Test
    void vdpaSimBlkHasNoControlQueueAndIsShadowedAllTheSame() {
        RehearsalResult r = rehearse("6.12", "vdpasim_blk", false, 1).result();
        assertTrue(r.completed(), String.valueOf(r.failure()));
        assertEquals(List.of(), r.notes());
        assertTrue(calls(r.lastIteration().spans(), Phase.CONFIGURE, "d0").contains("write IOTLB UPDATE asid 0 iova 0x"
                + Long.toHexString(SHADOW_IOVA)));
    }

    @Test
    void mlx5RunsItsQueuePairCommandThroughTheControlQueuesOwnAddressSpace() {
        try (FakeRig rig = FakeRig.mlx5(2, 4, "mlx5-612")) {
            RehearsalResult r = rig.rehearsal().run(RehearsalPlan.builder(rig.devices).strategy(Strategy.SVQ).memory(MEMORY)
                    .window(WindowMode.IN_PLACE).iterations(2).build());
            assertTrue(r.completed(), String.valueOf(r.failure()));
            List<String> setup = r.setupSpans().stream().filter(s -> s.device().equals("mlx5-0")).map(Span::call).toList();
            assertTrue(setup.stream().anyMatch(c -> c.startsWith("VHOST_VDPA_SET_GROUP_ASID group ") && c.endsWith(" asid 1")), setup.toString());
            assertTrue(setup.contains("CVQ VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET(4)"), setup.toString());
            List<Span> window = r.lastIteration().spans();
            assertTrue(calls(window, Phase.CVQ_MQ, "mlx5-1").contains("CVQ VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET(4)"));
            assertEquals(2 * 8, calls(window, Phase.CONFIGURE, "mlx5-0").stream().filter(c -> c.startsWith("write IOTLB UPDATE asid 0 ")).count(),
                    "two updates per shadowed data vring (4 pairs)");
            assertTrue(r.plan().inDowntime(Phase.RESET), "in place: the switch's reset is downtime");
        }
    }

    @Test
    void aSeparateDestinationStartsShadowedAndIsResetAndUnmappedAfterwards() {
        Run run = rehearse("6.12", "vdpasim_net", true, 2);
        RehearsalResult r = run.result();
        assertTrue(r.completed(), String.valueOf(r.failure()));
        List<String> configure = calls(r.lastIteration().spans(), Phase.CONFIGURE, "d1");
        assertTrue(configure.contains("write IOTLB UPDATE asid 0 iova 0x" + Long.toHexString(SHADOW_IOVA)), configure.toString());
        List<String> restore = calls(r.lastIteration().spans(), Phase.RESTORE, "d1");
        assertTrue(restore.contains("write IOTLB INVALIDATE asid 0 iova 0x" + Long.toHexString(SHADOW_IOVA)), restore.toString());
        assertEquals(0L, run.shadowEntries().get("d1"), "the destination's shadow rings unmapped");
    }
}
