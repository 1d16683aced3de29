package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.vhost.Vhost;
import org.vdpactl.fake.device.DeviceCounters;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.time.VirtualClock;
import org.vdpactl.vhost.VhostIoctl;

/** A QEMU-like bring-up and stop of an mlx5 device priced by the mlx5-612 model. */
class Mlx5BringUpTest {
    private static final long MB = 1L << 20;

    @Test
    void fullCycleIsPricedByTheModel() {
        VirtualClock clock = new VirtualClock();
        try (FakeKernel k = FakeKernel.builder().clock(clock).build(); FakeProcess p = k.newProcess();
             Vhost m = new Vhost(p, "/dev/vhost-vdpa-2")) {
            m.setOwner();
            m.setU64(VhostIoctl.SET_BACKEND_FEATURES, m.getU64(VhostIoctl.GET_BACKEND_FEATURES));
            int nvqs = m.getU32(VhostIoctl.VDPA_GET_VQS_COUNT);
            m.setStatus(1);
            m.setStatus(3);
            m.setU64(VhostIoctl.SET_FEATURES, m.getU64(VhostIoctl.GET_FEATURES));
            m.setStatus(0xB);
            assertEquals(0xB, m.status());
            MemorySegment guest = p.mmap(64 * MB, libc_h.PROT_READ() | libc_h.PROT_WRITE(),
                    libc_h.MAP_PRIVATE() | libc_h.MAP_ANONYMOUS(), -1, 0);
            m.iotlb(0, Vhost.BATCH_BEGIN, 0, 0, 0);
            m.iotlb(0, Vhost.UPDATE, 0, 64 * MB, guest.address());
            m.iotlb(0, Vhost.BATCH_END, 0, 0, 0);
            int efd = p.eventfd(0, 0);
            for (int i = 0; i < nvqs; i++) {
                m.vringState(VhostIoctl.SET_VRING_NUM, i, 256);
                m.vringState(VhostIoctl.SET_VRING_BASE, i, 0);
                m.vringAddr(i, i * 0x10000L, i * 0x10000L + 0x1000, i * 0x10000L + 0x2000);
                m.vringFile(VhostIoctl.SET_VRING_KICK, i, efd);
                m.vringFile(VhostIoctl.SET_VRING_CALL, i, efd);
                m.vringState(VhostIoctl.VDPA_SET_VRING_ENABLE, i, 1);
            }
            m.setStatus(0xF);
            assertEquals(0xF, m.status());
            m.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            for (int i = 0; i < nvqs; i++) {
                m.vringState(VhostIoctl.GET_VRING_BASE, i, 0);
            }
            m.setStatus(0);
            DeviceCounters.Snapshot c = FakeInside.device(k, "mlx5-0").orElseThrow().counters();
            assertEquals(1, c.calls("set_map"));
            assertEquals(1, c.calls("suspend"));
            assertTrue(c.total().syncCommands() + c.total().asyncCommands() > 0, c.toString());
            assertTrue(clock.nanoTime() > 0, "the firmware work took simulated time");
            assertEquals(c.total().nanos(), clock.nanoTime(), "one caller on one device pays exactly the op costs");
        }
    }
}
