package org.vdpactl.fake.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.vfs.EventFdFile;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.vhost.Vhost;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.vring_avail;
import org.vdpactl.ffi.gen.vhost.vring_desc;
import org.vdpactl.ffi.gen.vhost.vring_used;
import org.vdpactl.vhost.VhostIoctl;

/** The control virtqueue datapath of net devices (vdpa_sim_net §9, mlx5's CVQ). */
class ControlQueueTest {
    private static final long PAGE = 4096;
    private static final long RING_IOVA = 0x100000;
    private static final int QSIZE = 64;
    private static final long FEATURES = (1L << 32) | (1L << 33) | (1L << 17) | (1L << 5);

    private final FakeKernel kernel = FakeKernel.builder().build();
    private final FakeProcess p = kernel.newProcess();
    private MemorySegment ring;
    private int call;
    private int kick;
    private int posted;

    @AfterEach
    void tearDown() {
        p.close();
        kernel.close();
    }

    /** Owner, features, CVQ ring in shared memory mapped at RING_IOVA in {@code asid}, DRIVER_OK. */
    private Vhost start(String node, long features, int cvq, int asid) {
        Vhost v = new Vhost(p, node);
        v.setOwner();
        v.setU64(VhostIoctl.SET_BACKEND_FEATURES, 0x0E);
        v.setStatus(3);
        v.setU64(VhostIoctl.SET_FEATURES, features);
        v.setStatus(0xB);
        int memfd = p.memfdCreate("cvq", 0);
        p.ftruncate(memfd, 4 * PAGE);
        ring = p.mmap(4 * PAGE, libc_h.PROT_READ() | libc_h.PROT_WRITE(), libc_h.MAP_SHARED(), memfd, 0);
        p.close(memfd);
        if (asid != 0) {
            v.vringState(VhostIoctl.VDPA_SET_GROUP_ASID, v.vringState(VhostIoctl.VDPA_GET_VRING_GROUP, cvq, 0), asid);
        }
        v.iotlb(asid, Vhost.UPDATE, RING_IOVA, 4 * PAGE, ring.address());
        call = p.eventfd(0, libc_h.EFD_NONBLOCK());
        kick = p.eventfd(0, 0);
        v.vringState(VhostIoctl.SET_VRING_NUM, cvq, QSIZE);
        v.vringAddr(cvq, RING_IOVA, RING_IOVA + PAGE, RING_IOVA + 2 * PAGE);
        v.vringFile(VhostIoctl.SET_VRING_KICK, cvq, kick);
        v.vringFile(VhostIoctl.SET_VRING_CALL, cvq, call);
        v.vringState(VhostIoctl.VDPA_SET_VRING_ENABLE, cvq, 1);
        v.setStatus(0xF);
        return v;
    }

    /** Posts {class, cmd, data} with an ack buffer and kicks; returns the ack byte (0xFF = untouched). */
    private int send(int cls, int cmd, int... values) {
        byte[] data = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            data[i] = (byte) values[i];
        }
        MemorySegment buf = ring.asSlice(3 * PAGE, PAGE);
        buf.set(ValueLayout.JAVA_BYTE, 0, (byte) cls);
        buf.set(ValueLayout.JAVA_BYTE, 1, (byte) cmd);
        MemorySegment.copy(data, 0, buf, ValueLayout.JAVA_BYTE, 64, data.length);
        buf.set(ValueLayout.JAVA_BYTE, 128, (byte) 0xFF);
        short next = (short) vhost_h.VRING_DESC_F_NEXT();
        desc(0, RING_IOVA + 3 * PAGE, 2, next, 1);
        desc(1, RING_IOVA + 3 * PAGE + 64, data.length, next, 2);
        desc(2, RING_IOVA + 3 * PAGE + 128, 1, (short) vhost_h.VRING_DESC_F_WRITE(), 0);
        MemorySegment avail = ring.asSlice(PAGE, PAGE);
        avail.set(ValueLayout.JAVA_SHORT, vring_avail.ring$offset() + 2L * (posted % QSIZE), (short) 0);
        posted++;
        vring_avail.idx(avail, (short) posted);
        p.write(kick, MemorySegment.ofArray(new long[] {1}));
        return Byte.toUnsignedInt(buf.get(ValueLayout.JAVA_BYTE, 128));
    }

    private void desc(int i, long addr, int len, short flags, int next) {
        MemorySegment d = vring_desc.asSlice(ring, i);
        vring_desc.addr(d, addr);
        vring_desc.len(d, len);
        vring_desc.flags(d, flags);
        vring_desc.next(d, (short) next);
    }

    private int usedIdx() {
        return Short.toUnsignedInt(vring_used.idx(ring.asSlice(2 * PAGE, PAGE)));
    }

    private long calls() {
        return ((EventFdFile) FakeInside.fileOf(p, call)).counter();
    }

    @Test
    void macAddrSetChangesTheConfigSpace() {
        try (Vhost v = start("/dev/vhost-vdpa-0", FEATURES, 2, 0)) {
            assertEquals(0, send(1, 1, 2, 0, 0, 0, 0, 0x33));
            assertEquals(1, usedIdx());
            assertEquals(1, calls());
            assertArrayEquals(new byte[] {2, 0, 0, 0, 0, 0x33}, FakeInside.device(kernel, "vdpa0").orElseThrow().configMac());
            assertEquals(1, send(4, 0, 2, 0), "vdpa_sim has no MQ: VIRTIO_NET_ERR");
            assertEquals(1, send(9, 9), "unknown commands: VIRTIO_NET_ERR");
            assertEquals(3, usedIdx());
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            assertEquals(3, v.vringState(VhostIoctl.GET_VRING_BASE, 2, 0), "the avail index the device reached");
        }
    }

    /** vdpasim_handle_cvq: a header that cannot be read is an error and stops the queue, its head consumed (vringh). */
    @Test
    void aCommandWithoutAWholeHeaderIsCountedAsAnErrorAndStopsTheQueue() {
        try (Vhost v = start("/dev/vhost-vdpa-0", FEATURES, 2, 0)) {
            desc(0, RING_IOVA + 3 * PAGE, 1, (short) vhost_h.VRING_DESC_F_NEXT(), 1);
            desc(1, RING_IOVA + 3 * PAGE + 128, 1, (short) vhost_h.VRING_DESC_F_WRITE(), 0);
            MemorySegment avail = ring.asSlice(PAGE, PAGE);
            avail.set(ValueLayout.JAVA_SHORT, vring_avail.ring$offset(), (short) 0);
            vring_avail.idx(avail, (short) 1);
            p.write(kick, MemorySegment.ofArray(new long[] {1}));
            assertEquals(0, usedIdx(), "no used entry");
            var stats = FakeInside.device(kernel, "vdpa0").orElseThrow().netlinkView().vendorStats(2);
            assertEquals(List.of(1L, 0L, 1L), stats.stream().map(e -> e.getValue()).toList(), "requests, successes, errors");
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            assertEquals(1, v.vringState(VhostIoctl.GET_VRING_BASE, 2, 0), "the head was consumed");
        }
    }

    @Test
    void theCvqFollowsItsGroupsAddressSpace() {
        try (Vhost v = start("/dev/vhost-vdpa-0", FEATURES, 2, 1)) {
            assertEquals(0, send(1, 1, 2, 0, 0, 0, 0, 0x44));
            v.vringState(VhostIoctl.VDPA_SET_GROUP_ASID, 1, 0);
            assertEquals(0xFF, send(1, 1, 2, 0, 0, 0, 0, 0x55), "asid 0 has no ring mapping and no identity");
        }
    }

    @Test
    void kicksWhileSuspendedRunAtResume() {
        try (Vhost v = start("/dev/vhost-vdpa-0", FEATURES, 2, 0)) {
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            assertEquals(0xFF, send(1, 1, 2, 0, 0, 0, 0, 0x66));
            assertEquals(0, usedIdx());
            v.ioctl(VhostIoctl.VDPA_RESUME, MemorySegment.NULL);
            assertEquals(1, usedIdx());
            assertEquals(1, calls());
        }
    }

    @Test
    void withoutCtrlVqNothingIsProcessed() {
        try (Vhost v = start("/dev/vhost-vdpa-0", (1L << 32) | (1L << 33), 2, 0)) {
            assertEquals(0xFF, send(1, 1, 2, 0, 0, 0, 0, 0x77));
        }
    }

    @Test
    void mlx5QueuePairsAreChargedToTheModel() {
        long mq = 1L << 22;
        try (Vhost v = start("/dev/vhost-vdpa-2", FEATURES | mq, 32, 1)) {
            assertEquals(0, send(4, 0, 16, 0));
            assertEquals(1, send(4, 0, 17, 0), "more pairs than the device has");
            assertEquals(1, FakeInside.device(kernel, "mlx5-0").orElseThrow().counters().calls("change_num_qps"));
        }
    }
}
