package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.MemlockLimit;

/**
 * Client-side behaviour of {@link VhostVdpaDevice} that does not depend on the device: argument
 * encoding, negotiation, read-back checks, error texts, buffer reuse, rollback. Device semantics
 * are covered by the conformance suite (org.vdpactl.conformance.device).
 */
class VhostVdpaDeviceTest {
    private final StubSyscalls sys = new StubSyscalls();

    private VhostVdpaDevice open() {
        sys.on(VhostIoctl.VDPA_GET_DEVICE_ID, a -> {
            a.set(ValueLayout.JAVA_INT, 0, 1);
            return 0;
        });
        return VhostVdpaDevice.open(sys, "/dev/vhost-vdpa-0");
    }

    private static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void opensReadWriteCloseOnExecAndClosesTheFdOnce() {
        VhostVdpaDevice dev = open();
        assertEquals(libc_h.O_RDWR() | libc_h.O_CLOEXEC(), sys.calls("open /dev/vhost-vdpa-0").get(0).request());
        dev.close();
        dev.close();
        assertEquals(List.of(dev.fd()), sys.closed);
        assertThrows(IllegalStateException.class, dev::getStatus);
    }

    @Test
    void fromFdDoesNotCloseTheParentsFdUnlessAsked() {
        VhostVdpaDevice.fromFd(sys, 42, "fd 42 from libvirt").close();
        assertTrue(sys.closed.isEmpty());
        VhostVdpaDevice.fromFd(sys, 43, "fd 43", true).close();
        assertEquals(List.of(43), sys.closed);
    }

    @Test
    void openEbusyNamesTheOneOpenerRule() {
        sys.openErrno = Errno.EBUSY;
        VhostException e = assertThrows(VhostException.class, () -> VhostVdpaDevice.open(sys, "/dev/vhost-vdpa-3"));
        assertEquals(Errno.EBUSY, e.errno());
        assertEquals("/dev/vhost-vdpa-3", e.device());
        assertTrue(e.getMessage().contains("EBUSY"), e.getMessage());
        assertTrue(e.hint().contains("one open file per node"), e.hint());
    }

    @Test
    void negotiationAcksExactlyOfferedIntersectNeeded() {
        sys.onU64(VhostIoctl.GET_BACKEND_FEATURES, 0x17E).on(VhostIoctl.SET_BACKEND_FEATURES, a -> 0);
        try (VhostVdpaDevice dev = open()) {
            BackendFeatures acked = dev.negotiateBackendFeatures(BackendFeatures.ORCHESTRATION,
                    BackendFeatures.of(BackendFeature.IOTLB_PERSIST, BackendFeature.DESC_ASID));
            assertEquals(0x13E, acked.bits()); // DESC_ASID (0x80) is not offered by 0x17E
            byte[] sent = sys.ioctlCalls(VhostIoctl.SET_BACKEND_FEATURES).get(0).arg();
            assertEquals(0x13E, le(sent).getLong());
            assertEquals(acked, dev.ackedBackendFeatures());
        }
    }

    @Test
    void negotiationRefusesEarlyNamingTheMissingBits() {
        sys.onU64(VhostIoctl.GET_BACKEND_FEATURES, 0x01E).on(VhostIoctl.SET_BACKEND_FEATURES, a -> 0); // 6.1: no RESUME
        try (VhostVdpaDevice dev = open()) {
            MissingBackendFeaturesException e = assertThrows(MissingBackendFeaturesException.class,
                    () -> dev.negotiateBackendFeatures(BackendFeatures.ORCHESTRATION));
            assertEquals(BackendFeatures.of(BackendFeature.RESUME), e.missing());
            assertTrue(e.getMessage().contains("RESUME"), e.getMessage());
            assertTrue(sys.ioctlCalls(VhostIoctl.SET_BACKEND_FEATURES).isEmpty(), "nothing acked");
        }
    }

    @Test
    void descAsidIsNotAckedWithoutIotlbAsid() {
        sys.onU64(VhostIoctl.GET_BACKEND_FEATURES, 0x1FE).on(VhostIoctl.SET_BACKEND_FEATURES, a -> 0);
        try (VhostVdpaDevice dev = open()) {
            BackendFeatures acked = dev.negotiateBackendFeatures(BackendFeatures.of(BackendFeature.IOTLB_MSG_V2),
                    BackendFeatures.of(BackendFeature.DESC_ASID));
            assertEquals(BackendFeatures.of(BackendFeature.IOTLB_MSG_V2), acked);
        }
    }

    @Test
    void vringStateArgumentsUseTheGeneratedLayout() {
        sys.on(VhostIoctl.SET_VRING_NUM, a -> 0).on(VhostIoctl.VDPA_SET_GROUP_ASID, a -> 0);
        try (VhostVdpaDevice dev = open()) {
            dev.setVringNum(2, 256);
            dev.setGroupAsid(1, 1);
            ByteBuffer num = le(sys.ioctlCalls(VhostIoctl.SET_VRING_NUM).get(0).arg());
            assertEquals(8, num.capacity());
            assertEquals(2, num.getInt(0));
            assertEquals(256, num.getInt(4));
            ByteBuffer asid = le(sys.ioctlCalls(VhostIoctl.VDPA_SET_GROUP_ASID).get(0).arg());
            assertEquals(1, asid.getInt(0));
            assertEquals(1, asid.getInt(4));
        }
    }

    @Test
    void vringAddrPutsUsedBeforeAvailAsTheKernelStructDoes() {
        sys.on(VhostIoctl.SET_VRING_ADDR, a -> 0);
        try (VhostVdpaDevice dev = open()) {
            dev.setVringAddr(1, new VringAddress(1, 0x1000, 0x2000, 0x3000, 0x4000));
            ByteBuffer b = le(sys.ioctlCalls(VhostIoctl.SET_VRING_ADDR).get(0).arg());
            assertEquals(40, b.capacity());
            assertEquals(1, b.getInt(0));
            assertEquals(1, b.getInt(4));
            assertEquals(0x1000, b.getLong(8)); // desc
            assertEquals(0x3000, b.getLong(16)); // used
            assertEquals(0x2000, b.getLong(24)); // avail
            assertEquals(0x4000, b.getLong(32)); // log
        }
    }

    @Test
    void configArgumentIsHeaderPlusData() {
        sys.on(VhostIoctl.VDPA_GET_CONFIG, a -> {
            assertEquals(8 + 6, a.byteSize());
            a.set(ValueLayout.JAVA_BYTE, 8, (byte) 0x02);
            a.set(ValueLayout.JAVA_BYTE, 13, (byte) 0x01);
            return 0;
        }).on(VhostIoctl.VDPA_SET_CONFIG, a -> 0);
        try (VhostVdpaDevice dev = open()) {
            assertArrayEquals(new byte[] {2, 0, 0, 0, 0, 1}, dev.getConfig(0, 6));
            ByteBuffer hdr = le(sys.ioctlCalls(VhostIoctl.VDPA_GET_CONFIG).get(0).arg());
            assertEquals(0, hdr.getInt(0));
            assertEquals(6, hdr.getInt(4));
            dev.setConfig(2, new byte[600]); // larger than the handle's scratch buffer
            ByteBuffer set = le(sys.ioctlCalls(VhostIoctl.VDPA_SET_CONFIG).get(0).arg());
            assertEquals(608, set.capacity());
            assertEquals(2, set.getInt(0));
            assertEquals(600, set.getInt(4));
        }
    }

    @Test
    void readBackReportsAStatusTheDeviceDidNotKeep() {
        sys.on(VhostIoctl.VDPA_SET_STATUS, a -> 0).on(VhostIoctl.VDPA_GET_STATUS, a -> {
            a.set(ValueLayout.JAVA_BYTE, 0, (byte) 0x03); // device dropped FEATURES_OK
            return 0;
        });
        try (VhostVdpaDevice dev = open()) {
            dev.setStatus(DeviceStatus.of(DeviceStatus.ACKNOWLEDGE, DeviceStatus.DRIVER, DeviceStatus.FEATURES_OK));
            assertTrue(sys.ioctlCalls(VhostIoctl.VDPA_GET_STATUS).isEmpty(), "no read-back by default");
            dev.setReadBackVerification(true);
            ReadBackMismatchException e = assertThrows(ReadBackMismatchException.class,
                    () -> dev.setStatus(DeviceStatus.of(DeviceStatus.ACKNOWLEDGE, DeviceStatus.DRIVER, DeviceStatus.FEATURES_OK)));
            assertEquals(0x0B, e.expected());
            assertEquals(0x03, e.actual());
            assertTrue(e.getMessage().contains("refused the negotiated features"), e.getMessage());
        }
    }

    @Test
    void readBackReportsFeatureBitsTheDeviceDropped() {
        sys.on(VhostIoctl.SET_FEATURES, a -> 0).onU64(VhostIoctl.GET_FEATURES, 0x308830028L);
        try (VhostVdpaDevice dev = open().setReadBackVerification(true)) {
            dev.setFeatures(0x300000000L | (1L << 5));
            ReadBackMismatchException e = assertThrows(ReadBackMismatchException.class,
                    () -> dev.setFeatures(0x300000000L | (1L << 22)));
            assertTrue(e.getMessage().contains("VIRTIO_NET_F_MQ"), e.getMessage());
        }
    }

    @Test
    void readBackOfVringBaseAndNum() {
        sys.on(VhostIoctl.SET_VRING_BASE, a -> 0).on(VhostIoctl.GET_VRING_BASE, a -> {
            a.set(ValueLayout.JAVA_INT, 4, 0);
            return 0;
        }).on(VhostIoctl.SET_VRING_NUM, a -> 0).on(VhostIoctl.VDPA_GET_VRING_NUM, a -> {
            a.set(ValueLayout.JAVA_SHORT, 0, (short) 256);
            return 0;
        });
        try (VhostVdpaDevice dev = open().setReadBackVerification(true)) {
            dev.setVringBase(0, 0);
            assertThrows(ReadBackMismatchException.class, () -> dev.setVringBase(0, 7));
            dev.setVringNum(0, 256);
            assertThrows(ReadBackMismatchException.class, () -> dev.setVringNum(0, 512)); // what 6.1 accepts silently
        }
    }

    @Test
    void ioctlErrorNamesIoctlDeviceErrnoAndHint() {
        sys.fail(VhostIoctl.VDPA_SUSPEND, Errno.EOPNOTSUPP).fail(VhostIoctl.SET_VRING_NUM, Errno.EPERM);
        try (VhostVdpaDevice dev = open()) {
            VhostException e = assertThrows(VhostException.class, dev::suspend);
            assertEquals("ioctl VHOST_VDPA_SUSPEND", e.operation());
            assertTrue(e.getMessage().startsWith("ioctl VHOST_VDPA_SUSPEND on /dev/vhost-vdpa-0: EOPNOTSUPP"), e.getMessage());
            assertTrue(e.hint().contains("no suspend op"), e.hint());
            VhostException perm = assertThrows(VhostException.class, () -> dev.setVringNum(0, 64));
            assertTrue(perm.hint().contains("SET_OWNER"), perm.hint());
        }
    }

    @Test
    void everyIotlbMessageIsEncodedIntoTheSameNativeBuffer() {
        try (VhostVdpaDevice dev = open()) {
            IotlbPlan plan = IotlbBatchPlanner.defaults().planMap(0, List.of(
                    new IotlbRegion(0, 0x1000, 0x10000, IotlbPermission.RW),
                    new IotlbRegion(0x1000, 0x1000, 0x20000, IotlbPermission.RO)), IovaRange.FULL);
            dev.apply(plan);
            List<StubSyscalls.Call> writes = sys.calls("write");
            assertEquals(4, writes.size()); // BEGIN, UPDATE, UPDATE, END
            Set<Long> addresses = writes.stream().map(StubSyscalls.Call::address).collect(Collectors.toSet());
            assertEquals(1, addresses.size(), "one reused buffer");
            for (StubSyscalls.Call w : writes) {
                assertEquals(72, w.arg().length);
            }
            assertEquals(plan.messages(), writes.stream().map(w -> IotlbCodec.fromBytes(w.arg())).toList());
        }
    }

    @Test
    void aWriteThatDoesNotReturn72IsAProtocolError() {
        sys.writeAnswer = seg -> 40;
        try (VhostVdpaDevice dev = open()) {
            VhostProtocolException e = assertThrows(VhostProtocolException.class,
                    () -> dev.map(0, 0, 4096, 0x10000, IotlbPermission.RW));
            assertTrue(e.getMessage().contains("returned 40, expected 72"), e.getMessage());
        }
    }

    @Test
    void iotlbEfaultListsTheLikelyCausesIncludingMissingOwnership() {
        sys.writeAnswer = seg -> -Errno.EFAULT;
        try (VhostVdpaDevice dev = open()) {
            VhostException e = assertThrows(VhostException.class, () -> dev.map(0, 0, 4096, 0x10000, IotlbPermission.RW));
            assertEquals(Errno.EFAULT, e.errno());
            assertTrue(e.operation().startsWith("write IOTLB UPDATE"), e.operation());
            assertTrue(e.hint().startsWith("most likely: this handle never called VHOST_SET_OWNER"), e.hint());
            for (String cause : List.of("overlaps", "outside GET_IOVA_RANGE", "unknown ASID", "not the owner", "2048", "RLIMIT_MEMLOCK")) {
                assertTrue(e.hint().contains(cause), cause + " missing in: " + e.hint());
            }
        }
    }

    @Test
    void iotlbEnomemNamesTheMemlockLimit() {
        sys.writeAnswer = seg -> -Errno.ENOMEM;
        try (VhostVdpaDevice dev = open()) {
            VhostException e = assertThrows(VhostException.class, () -> dev.map(0, 0, 1L << 30, 0x10000, IotlbPermission.RW));
            assertTrue(e.hint().contains("RLIMIT_MEMLOCK"), e.hint());
            assertTrue(e.hint().contains("1024 MiB"), e.hint());
            MemlockLimit.current().ifPresent(l -> assertTrue(e.hint().contains(l.describe()), e.hint()));
        }
    }

    @Test
    void memlockHintOfAFailedPlanNamesWhatTheWholePlanNeeds() {
        int[] n = {0};
        sys.writeAnswer = seg -> ++n[0] == 3 ? -Errno.ENOMEM : 72;
        try (VhostVdpaDevice dev = open()) {
            IotlbPlan plan = IotlbBatchPlanner.defaults().planMap(0, List.of(
                    new IotlbRegion(0, 1L << 30, 0x10000, IotlbPermission.RW),
                    new IotlbRegion(1L << 30, 1L << 30, 0x20000, IotlbPermission.RW)), IovaRange.FULL);
            VhostException e = assertThrows(VhostException.class, () -> dev.apply(plan));
            assertTrue(e.hint().contains("needs 2048 MiB"), e.hint());
        }
    }

    @Test
    void absurdConfigLengthsAreRefusedBeforeAllocating() {
        try (VhostVdpaDevice dev = open()) {
            assertThrows(IllegalArgumentException.class, () -> dev.getConfig(0, -1));
            assertTrue(sys.ioctlCalls(VhostIoctl.VDPA_GET_CONFIG).isEmpty());
        }
    }

    @Test
    void aFailedPlanIsRolledBackAndNamesTheFailingMessage() {
        int[] n = {0};
        sys.writeAnswer = seg -> ++n[0] == 4 ? -Errno.EFAULT : 72; // BEGIN, UPDATE, UPDATE ok, third UPDATE fails
        try (VhostVdpaDevice dev = open()) {
            IotlbPlan plan = IotlbBatchPlanner.defaults().planMap(0, List.of(
                    new IotlbRegion(0, 0x1000, 0x10000, IotlbPermission.RW),
                    new IotlbRegion(0x1000, 0x1000, 0x20000, IotlbPermission.RW),
                    new IotlbRegion(0x2000, 0x1000, 0x30000, IotlbPermission.RW)), IovaRange.FULL);
            VhostException e = assertThrows(VhostException.class, () -> dev.apply(plan));
            assertTrue(e.operation().contains("(message 4 of 5)"), e.operation());
            List<IotlbMessage> after = sys.calls("write").stream().skip(4).map(w -> IotlbCodec.fromBytes(w.arg())).toList();
            assertEquals(List.of(IotlbMessage.batchEnd(0), IotlbMessage.invalidate(0, 0, 0x1000), IotlbMessage.invalidate(0, 0x1000, 0x1000)),
                    after);
        }
    }

    @Test
    void nonZeroAsidIsRefusedWhenIotlbAsidWasNotAcked() {
        sys.on(VhostIoctl.SET_BACKEND_FEATURES, a -> 0);
        try (VhostVdpaDevice dev = open()) {
            dev.setBackendFeatures(BackendFeatures.of(BackendFeature.IOTLB_MSG_V2, BackendFeature.IOTLB_BATCH));
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> dev.map(1, 0, 4096, 0x10000, IotlbPermission.RW));
            assertTrue(e.getMessage().contains("VHOST_BACKEND_F_IOTLB_ASID"), e.getMessage());
            assertTrue(sys.calls("write").isEmpty());
        }
    }

    @Test
    void aPlanForAnUnackedAsidIsRefusedBeforeAnyWrite() {
        sys.on(VhostIoctl.SET_BACKEND_FEATURES, a -> 0);
        try (VhostVdpaDevice dev = open()) {
            dev.setBackendFeatures(BackendFeatures.of(BackendFeature.IOTLB_MSG_V2));
            IotlbPlan plan = IotlbPlan.concat(
                    IotlbBatchPlanner.defaults().planMap(0, List.of(new IotlbRegion(0, 4096, 0x10000, IotlbPermission.RW)), IovaRange.FULL),
                    IotlbBatchPlanner.defaults().planMap(1, List.of(new IotlbRegion(0, 4096, 0x10000, IotlbPermission.RW)), IovaRange.FULL));
            assertThrows(IllegalStateException.class, () -> dev.apply(plan));
            assertTrue(sys.calls("write").isEmpty());
        }
    }

    @Test
    void v1MessagesWhenMsgV2WasNotAcked() {
        sys.on(VhostIoctl.SET_BACKEND_FEATURES, a -> 0);
        try (VhostVdpaDevice dev = open()) {
            dev.setBackendFeatures(BackendFeatures.of(BackendFeature.IOTLB_BATCH));
            dev.map(0, 0, 4096, 0x10000, IotlbPermission.RW);
            assertEquals(IotlbCodec.V1, IotlbCodec.fromBytes(sys.calls("write").get(0).arg()).version());
            dev.setBackendFeatures(BackendFeatures.of(BackendFeature.IOTLB_MSG_V2));
            dev.map(0, 0x1000, 4096, 0x10000, IotlbPermission.RW);
            assertEquals(IotlbCodec.V2, IotlbCodec.fromBytes(sys.calls("write").get(1).arg()).version());
        }
    }

    @Test
    void mapAllChecksTheIovaRangeBeforeWritingAnything() {
        sys.on(VhostIoctl.VDPA_GET_IOVA_RANGE, a -> {
            a.set(ValueLayout.JAVA_LONG, 0, 0x1000);
            a.set(ValueLayout.JAVA_LONG, 8, 0xFFFF_FFFFL);
            return 0;
        });
        try (VhostVdpaDevice dev = open()) {
            IotlbPlanException e = assertThrows(IotlbPlanException.class, () -> dev.mapAll(0, List.of(
                    new IotlbRegion(0x1000, 0x1000, 0x10000, IotlbPermission.RW),
                    new IotlbRegion(0xFFFF_F000L, 0x2000, 0x20000, IotlbPermission.RW))));
            assertEquals(1, e.regionIndex());
            assertTrue(sys.calls("write").isEmpty());
        }
    }

    @Test
    void twoThreadsAtOnceAreRefused() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        sys.on(VhostIoctl.VDPA_GET_STATUS, a -> {
            inside.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 0;
        });
        try (VhostVdpaDevice dev = open()) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    dev.getStatus();
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            t.start();
            inside.await();
            assertThrows(ConcurrentModificationException.class, dev::getVqsCount);
            release.countDown();
            t.join();
            assertEquals(null, failure.get());
            sys.on(VhostIoctl.VDPA_GET_VQS_COUNT, a -> 0);
            dev.getVqsCount(); // usable from this thread once the other one is done
        }
    }

    @Test
    void guestMemoryIsSharedMemfdAndClosesBoth() {
        GuestMemory mem = GuestMemory.create(sys, "guest", 1 << 20);
        assertEquals(libc_h.MFD_CLOEXEC(), sys.calls("memfd guest").get(0).request());
        assertEquals(1 << 20, sys.calls("ftruncate").get(0).request());
        assertEquals(libc_h.MAP_SHARED(), sys.calls("mmap").get(0).request());
        IotlbRegion r = mem.region(0x4000, 0x1000, 0x8000, IotlbPermission.RO);
        assertEquals(mem.address() + 0x4000, r.hostAddress());
        assertThrows(IndexOutOfBoundsException.class, () -> mem.region(1 << 20, 1, 0, IotlbPermission.RO));
        mem.close();
        mem.close();
        assertEquals(1, sys.calls("munmap").size());
        assertEquals(List.of(mem.fd()), sys.closed);
    }

    /**
     * Issue 37's hot path: every IOTLB message reaches the seam in a buffer of the global scope, which the write
     * downcall does not acquire (a shared arena's segment would cost two atomic updates of the arena per message),
     * and it is the same buffer for every message (no allocation per message).
     */
    @Test
    void iotlbWritesReachTheSeamInOneBufferWithNoArenaToAcquire() {
        List<MemorySegment> buffers = new ArrayList<>();
        sys.writeAnswer = buf -> {
            buffers.add(buf);
            return 72;
        };
        try (VhostVdpaDevice dev = open()) {
            dev.map(0, 0x1000, 0x1000, 0x7f00_0000_0000L, IotlbPermission.RW);
            dev.unmap(0, 0x1000, 0x1000);
        }
        assertEquals(2, buffers.size());
        for (MemorySegment b : buffers) {
            assertEquals(MemorySegment.NULL.scope(), b.scope(), "not the handle's shared arena: " + b);
            assertEquals(72, b.byteSize());
        }
        assertEquals(buffers.get(0).address(), buffers.get(1).address(), "one reused buffer");
    }

    @Test
    void closedHandleRefusesIotlbWrites() {
        VhostVdpaDevice dev = open();
        dev.close();
        assertThrows(IllegalStateException.class, () -> dev.unmap(0, 0, 4096));
        assertFalse(sys.calls("write").size() > 0);
        assertNotNull(dev.toString());
    }
}
