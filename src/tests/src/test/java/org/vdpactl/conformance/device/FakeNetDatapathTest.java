package org.vdpactl.conformance.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.device.FakeVdpaDevice;
import org.vdpactl.vhost.BackendFeatures;
import org.vdpactl.vhost.DeviceStatus;
import org.vdpactl.vhost.EventFd;
import org.vdpactl.vhost.GuestMemory;
import org.vdpactl.vhost.IotlbPermission;
import org.vdpactl.vhost.VhostVdpaDevice;
import org.vdpactl.vhost.VringAddress;
import org.vdpactl.time.VirtualClock;

/**
 * The fake's net datapath where only the fake can be asked: hardware profiles do not loop frames
 * back, frames are cut to the RX buffer and to the kernel's one-page TX buffer, and the vendor
 * counters outlive a device reset (vdpa_sim keeps them in the device, not in the vqs).
 */
class FakeNetDatapathTest {
    private static final long PAGE = DriverVring.PAGE;
    private final FakeKernel kernel = FakeKernel.builder().build();
    private final FakeProcess p = kernel.newProcess();

    @AfterEach
    void tearDown() {
        p.close();
        kernel.close();
    }

    private record Rings(VhostVdpaDevice dev, MemorySegment mem, DriverVring rx, DriverVring tx, EventFd txKick) {
    }

    /** The node's device at DRIVER_OK with its offered features, RX/TX rings in memory at IOVA 0 of ASID 0. */
    private Rings start(String node) {
        return start(p, node);
    }

    private static Rings start(FakeProcess p, String node) {
        VhostVdpaDevice d = VhostVdpaDevice.open(p, node);
        d.setOwner();
        d.negotiateBackendFeatures(BackendFeatures.ORCHESTRATION);
        GuestMemory mem = GuestMemory.create(p, "datapath", 64 * PAGE);
        d.setStatus(DeviceStatus.of(DeviceStatus.ACKNOWLEDGE));
        d.setStatus(DeviceStatus.of(DeviceStatus.ACKNOWLEDGE, DeviceStatus.DRIVER));
        d.setFeatures(d.getFeatures());
        d.setStatus(DeviceStatus.of(DeviceStatus.ACKNOWLEDGE, DeviceStatus.DRIVER, DeviceStatus.FEATURES_OK));
        d.mapAll(0, List.of(mem.region(0, IotlbPermission.RW)));
        DriverVring[] rings = new DriverVring[2];
        EventFd kick = null;
        for (int vq = 0; vq < 2; vq++) {
            rings[vq] = new DriverVring(mem.segment(), 0, vq * 4 * PAGE);
            d.setVringNum(vq, DriverVring.SIZE);
            d.setVringBase(vq, 0);
            d.setVringAddr(vq, VringAddress.of(rings[vq].descIova(), rings[vq].availIova(), rings[vq].usedIova()));
            kick = EventFd.create(p);
            d.setVringKick(vq, kick);
            d.setVringEnable(vq, true);
        }
        d.setStatus(DeviceStatus.of(DeviceStatus.ACKNOWLEDGE, DeviceStatus.DRIVER, DeviceStatus.FEATURES_OK,
                DeviceStatus.DRIVER_OK));
        return new Rings(d, mem.segment(), rings[0], rings[1], kick);
    }

    private static void send(Rings r, byte[] frame, long at) {
        MemorySegment.copy(frame, 0, r.mem(), ValueLayout.JAVA_BYTE, at, frame.length);
        r.tx().post(at, frame.length, false);
        r.txKick().signal();
    }

    private long stat(String device, int qidx, String name) {
        return stat(kernel, device, qidx, name);
    }

    private static long stat(FakeKernel kernel, String device, int qidx, String name) {
        FakeVdpaDevice d = FakeInside.device(kernel, device).orElseThrow();
        return d.netlinkView().vendorStats(qidx).stream().filter(e -> e.getKey().equals(name)).findFirst().orElseThrow().getValue();
    }

    @Test
    void mlx5SendsFramesOutInsteadOfLoopingThemBack() {
        Rings r = start("/dev/vhost-vdpa-2");
        byte[] broadcast = DeviceConformanceSuite.frame(new byte[] {-1, -1, -1, -1, -1, -1}, 32);
        r.rx().post(16 * PAGE, 2048, true);
        send(r, broadcast, 20 * PAGE);
        assertEquals(0, r.rx().usedIdx(), "nothing arrives on RX");
        assertEquals(0, r.tx().usedIdx(), "the fake models no mlx5 transmit");
    }

    @Test
    void framesAreCutToTheRxBufferAndTheOnePageTxBuffer() {
        Rings r = start("/dev/vhost-vdpa-0");
        byte[] big = DeviceConformanceSuite.frame(new byte[] {-1, -1, -1, -1, -1, -1}, 5000);
        r.rx().post(16 * PAGE, 100, true);
        send(r, big, 20 * PAGE);
        assertArrayEquals(new long[] {0, 100}, r.rx().used(0), "written up to the RX buffer's size");
        assertEquals(4096, stat("vdpa0", 1, "tx bytes"), "the kernel reads at most a page of a TX chain");
        assertEquals(100, stat("vdpa0", 0, "rx bytes"));
    }

    @Test
    void countersSurviveAReset() {
        Rings r = start("/dev/vhost-vdpa-0");
        r.rx().post(16 * PAGE, 2048, true);
        send(r, DeviceConformanceSuite.frame(DeviceConformanceSuite.VDPA0_MAC, 10), 20 * PAGE);
        assertEquals(1, stat("vdpa0", 0, "rx packets"));
        r.dev().reset();
        assertEquals(1, stat("vdpa0", 0, "rx packets"));
        assertEquals(1, stat("vdpa0", 1, "tx packets"));
    }

    /** One frame looped back by a kernel on the shared state file, its device closed again. */
    private static void sendOneFrame(FakeKernel k) {
        try (FakeProcess q = k.newProcess()) {
            Rings r = start(q, "/dev/vhost-vdpa-0");
            r.rx().post(16 * PAGE, 2048, true);
            send(r, DeviceConformanceSuite.frame(DeviceConformanceSuite.VDPA0_MAC, 10), 20 * PAGE);
            r.dev().close();
        }
    }

    @Test
    void countersHoldAcrossKernelsOnOneStateFileAndAddUp(@TempDir Path dir) {
        Path state = dir.resolve("fake-state.json");
        try (FakeKernel a = FakeKernel.openShared(state, new VirtualClock(), List.of());
             FakeKernel b = FakeKernel.openShared(state, new VirtualClock(), List.of())) {
            sendOneFrame(a);
            sendOneFrame(b); // counted from the same saved 0 as a: each saves what it counted
        }
        try (FakeKernel c = FakeKernel.openShared(state, new VirtualClock(), List.of())) {
            assertEquals(2, stat(c, "vdpa0", 0, "rx packets"));
            assertEquals(2, stat(c, "vdpa0", 1, "tx packets"));
            sendOneFrame(c);
            assertEquals(3, stat(c, "vdpa0", 0, "rx packets"));
        }
        try (FakeKernel d = FakeKernel.openShared(state, new VirtualClock(), List.of())) {
            assertEquals(3, stat(d, "vdpa0", 0, "rx packets"));
        }
    }
}
