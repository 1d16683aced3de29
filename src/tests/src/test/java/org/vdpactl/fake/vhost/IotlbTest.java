package org.vdpactl.fake.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vdpactl.fake.vhost.Vhost.BATCH_BEGIN;
import static org.vdpactl.fake.vhost.Vhost.BATCH_END;
import static org.vdpactl.fake.vhost.Vhost.INVALIDATE;
import static org.vdpactl.fake.vhost.Vhost.UPDATE;
import static org.vdpactl.fake.vhost.Vhost.errno;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.FakeSyscallException;
import org.vdpactl.fake.device.FakeVdpaDevice;
import org.vdpactl.fake.mem.Vma;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.vhost_iotlb_msg;
import org.vdpactl.ffi.gen.vhost.vhost_msg_v2;
import org.vdpactl.sys.Errno;
import org.vdpactl.vhost.VhostIoctl;

/** IOTLB messages written to a vdpa_sim net device (kernel-abi.md §5, verified-device.md). */
class IotlbTest {
    private static final long PAGE = 4096;
    private final FakeKernel kernel = FakeKernel.builder().build();
    private final FakeProcess p = kernel.newProcess();
    private FakeVdpaDevice dev;
    private VhostVdpa vhost;
    private Vhost v;
    private MemorySegment guest;

    @BeforeEach
    void setUp() {
        dev = FakeInside.device(kernel, "vdpa0").orElseThrow();
        vhost = VhostVdpaDriver.of(kernel).vhost(dev);
        v = new Vhost(p, "/dev/vhost-vdpa-0");
        v.setOwner();
        int memfd = p.memfdCreate("guest", 0);
        p.ftruncate(memfd, 64 * PAGE);
        guest = p.mmap(64 * PAGE, libc_h.PROT_READ() | libc_h.PROT_WRITE(), libc_h.MAP_SHARED(), memfd, 0);
        p.close(memfd);
    }

    @AfterEach
    void tearDown() {
        v.close();
        p.close();
        kernel.close();
    }

    private long ua(long pageOffset) {
        return guest.address() + pageOffset * PAGE;
    }

    private List<MapEntry> table(int asid) {
        return vhost.iotlbEntries(asid);
    }

    private int write(MemorySegment m) {
        return errno(() -> p.write(v.fd, m));
    }

    @Test
    void parsing() {
        MemorySegment m = Vhost.msg(v.arena, 0, BATCH_BEGIN, 0, 0, 0);
        for (int len : new int[] {3, 7, 39}) {
            assertEquals(Errno.EINVAL, write(m.asSlice(0, len)), len + " bytes");
        }
        assertEquals(72, p.write(v.fd, m.asSlice(0, 40)));
        MemorySegment big = v.arena.allocate(80, 8);
        big.copyFrom(m);
        assertEquals(72, p.write(v.fd, big));
        for (int type : new int[] {0, 3}) {
            vhost_msg_v2.type(m, type);
            assertEquals(Errno.EINVAL, write(m), "top-level type " + type);
        }
        vhost_msg_v2.type(m, vhost_h.VHOST_IOTLB_MSG());
        assertEquals(72, p.write(v.fd, m));
        assertEquals(Errno.EINVAL, write(Vhost.msg(v.arena, 0, UPDATE, 0, 0, ua(0))));
        assertEquals(Errno.EINVAL, write(MemorySegment.NULL));
    }

    @Test
    void asidIsHonouredOnlyWithIotlbAsid() {
        assertEquals(72, v.iotlb(7, UPDATE, 0, PAGE, ua(0)));
        assertEquals(1, table(0).size());
        v.setU64(VhostIoctl.SET_BACKEND_FEATURES, 0x0E);
        assertEquals(Errno.EFAULT, errno(() -> v.iotlb(7, UPDATE, PAGE, PAGE, ua(1))));
        assertEquals(72, v.iotlb(1, UPDATE, PAGE, PAGE, ua(1)));
        assertEquals(1, table(1).size());
        // a V2 message whose asid is cut off is a parse error once the asid is read
        assertEquals(Errno.EINVAL, write(Vhost.msg(v.arena, 1, UPDATE, 0, PAGE, ua(0)).asSlice(0, 7)));
    }

    @Test
    void updateRules() {
        assertEquals(72, v.iotlb(0, UPDATE, 0x10000, 4 * PAGE, ua(0)));
        FakeSyscallException dup = assertThrows(FakeSyscallException.class,
                () -> v.iotlb(0, UPDATE, 0x10000, 4 * PAGE, ua(0)));
        assertEquals(Errno.EFAULT, dup.errno());
        assertTrue(dup.reason().contains("EEXIST"), dup.reason());
        assertEquals(Errno.EFAULT, errno(() -> v.iotlb(0, UPDATE, 0x10000 + 3 * PAGE, 2 * PAGE, ua(0))));
        assertEquals(Errno.EFAULT, errno(() -> v.iotlb(0, UPDATE, 0x10000 - PAGE, 2 * PAGE, ua(0))));
        assertEquals(72, v.iotlb(0, UPDATE, 0x10000 + 4 * PAGE, PAGE, ua(4)));
        assertEquals(72, v.iotlb(0, UPDATE, 0x10000 - PAGE, PAGE, ua(5)));
        assertEquals(Errno.EFAULT, errno(() -> v.iotlb(0, UPDATE, -PAGE, 2 * PAGE, ua(0))), "overflow");
        assertEquals(72, v.iotlb(0, UPDATE, -PAGE, PAGE, ua(0)), "last page of the IOVA space");
        for (int perm : new int[] {0, 0xFF}) {
            MemorySegment m = Vhost.msg(v.arena, 0, UPDATE, 0x100000L * (perm + 1), PAGE, ua(0));
            vhost_iotlb_msg.perm(vhost_msg_v2.iotlb(m), (byte) perm);
            assertEquals(72, p.write(v.fd, m), "perm is not validated");
        }
        for (int type : new int[] {0, 1, 4, 7}) {
            assertEquals(Errno.EFAULT, errno(() -> v.iotlb(0, type, 0x900000, PAGE, ua(0))), "msg type " + type);
        }
        assertEquals(72, v.iotlb(2, UPDATE, 0, PAGE, ua(0)), "without IOTLB_ASID the asid field is ignored");
    }

    @Test
    void asidBeyondNasIsRefused() {
        v.setU64(VhostIoctl.SET_BACKEND_FEATURES, 0x0E);
        assertEquals(Errno.EFAULT, errno(() -> v.iotlb(2, UPDATE, 0, PAGE, ua(0))));
        assertEquals(Errno.EFAULT, errno(() -> v.iotlb(2, BATCH_BEGIN, 0, 0, 0)));
        assertFalse(vhost.hasAddressSpace(2));
    }

    @Test
    void invalidateSemantics() {
        assertEquals(Errno.EFAULT, errno(() -> v.iotlb(0, INVALIDATE, 0, PAGE, 0)), "INVALIDATE never creates the AS");
        v.iotlb(0, UPDATE, 0, 16 * PAGE, ua(0));
        v.iotlb(0, UPDATE, 16 * PAGE, 16 * PAGE, ua(16));
        v.iotlb(0, UPDATE, 64 * PAGE, PAGE, ua(32));
        assertEquals(72, v.iotlb(0, INVALIDATE, 100 * PAGE, PAGE, 0), "unmapped range is fine");
        assertEquals(72, v.iotlb(0, INVALIDATE, 4 * PAGE, PAGE, 0));
        assertEquals(List.of(16 * PAGE, 64 * PAGE), table(0).stream().map(MapEntry::iova).toList(),
                "a 4K invalidate inside a 64K entry frees the whole entry");
        assertEquals(72, v.iotlb(0, UPDATE, 0, 16 * PAGE, ua(0)), "and the range can be mapped again");
        assertEquals(72, v.iotlb(0, INVALIDATE, 0, 0, 0));
        assertTrue(table(0).isEmpty(), "size 0 from iova 0 wraps to the whole space");
        assertTrue(vhost.hasAddressSpace(0), "an emptied AS is kept");
    }

    @Test
    void addressSpacesOfABlockDevice() {
        try (FakeProcess q = kernel.newProcess(); Vhost b = new Vhost(q, "/dev/vhost-vdpa-1")) {
            b.setOwner();
            b.setU64(VhostIoctl.SET_BACKEND_FEATURES, 0x0E);
            assertEquals(Errno.EFAULT, errno(() -> b.iotlb(1, UPDATE, 0, PAGE, 0)));
            assertEquals(Errno.EFAULT, errno(() -> b.iotlb(1, INVALIDATE, 0, PAGE, 0)));
            assertEquals(Errno.EFAULT, errno(() -> b.iotlb(0, BATCH_END, 0, 0, 0)), "BATCH_END never creates the AS");
            assertEquals(72, b.iotlb(0, BATCH_BEGIN, 0, 0, 0));
            assertEquals(72, b.iotlb(0, BATCH_END, 0, 0, 0));
        }
    }

    @Test
    void entryLimitPerAddressSpace() {
        v.iotlb(0, BATCH_BEGIN, 0, 0, 0);
        for (int i = 0; i < 2048; i++) {
            assertEquals(72, v.iotlb(0, UPDATE, i * PAGE, PAGE, ua(i % 64)));
        }
        FakeSyscallException full = assertThrows(FakeSyscallException.class, () -> v.iotlb(0, UPDATE, 4096 * PAGE, PAGE, ua(0)));
        assertTrue(full.reason().contains("ENOSPC"), full.reason());
        assertEquals(72, v.iotlb(0, BATCH_END, 0, 0, 0));
        assertEquals(2048, table(0).size());
        assertEquals(2048, dev.deviceMap(0).orElseThrow().size());
    }

    @Test
    void batches() {
        v.setU64(VhostIoctl.SET_BACKEND_FEATURES, 0x0E);
        long before = dev.counters().calls("set_map");
        assertEquals(72, v.iotlb(0, BATCH_BEGIN, 0, 0, 0));
        assertEquals(72, v.iotlb(0, BATCH_BEGIN, 0, 0, 0));
        v.iotlb(0, UPDATE, 0, PAGE, ua(0));
        v.iotlb(0, UPDATE, PAGE, PAGE, ua(1));
        assertEquals(Errno.EFAULT, errno(() -> v.iotlb(1, UPDATE, 0, PAGE, ua(0))), "another ASID inside a batch");
        assertTrue(vhost.hasAddressSpace(1), "UPDATE created the AS before the batch check refused it");
        assertEquals(before, dev.counters().calls("set_map"), "nothing pushed inside a batch");
        assertEquals(72, v.iotlb(0, BATCH_END, 0, 0, 0));
        assertEquals(before + 1, dev.counters().calls("set_map"));
        assertEquals(2, dev.deviceMap(0).orElseThrow().size());
        assertEquals(72, v.iotlb(0, BATCH_END, 0, 0, 0), "BATCH_END outside a batch");
        assertEquals(before + 1, dev.counters().calls("set_map"), "and it pushes nothing");
        v.iotlb(0, UPDATE, 2 * PAGE, PAGE, ua(2));
        assertEquals(before + 2, dev.counters().calls("set_map"), "an unbatched UPDATE pushes the table");
        assertEquals(3, dev.deviceMap(0).orElseThrow().size());
    }

    @Test
    void vaModeMapsOnlySharedFileMemory() {
        int rw = libc_h.PROT_READ() | libc_h.PROT_WRITE();
        MemorySegment anon = p.mmap(4 * PAGE, rw, libc_h.MAP_PRIVATE() | libc_h.MAP_ANONYMOUS(), -1, 0);
        assertEquals(72, v.iotlb(0, UPDATE, 0, 4 * PAGE, anon.address()));
        assertTrue(table(0).isEmpty(), "anonymous private memory is skipped");
        assertEquals(72, v.iotlb(0, UPDATE, 0, 4 * PAGE, anon.address()), "so the IOVA is still free");
        int memfd = p.memfdCreate("private", 0);
        p.ftruncate(memfd, 4 * PAGE);
        MemorySegment priv = p.mmap(4 * PAGE, rw, libc_h.MAP_PRIVATE(), memfd, 0);
        assertEquals(72, v.iotlb(0, UPDATE, 0, 4 * PAGE, priv.address()));
        assertTrue(table(0).isEmpty(), "private file mappings are skipped");
        MemorySegment shmem = p.mmap(4 * PAGE, rw, libc_h.MAP_SHARED() | libc_h.MAP_ANONYMOUS(), -1, 0);
        assertEquals(72, v.iotlb(0, UPDATE, 0, 4 * PAGE, shmem.address()));
        assertEquals(1, table(0).size(), "MAP_SHARED|MAP_ANONYMOUS is shmem, a file");
        long above = FakeInside.addressSpace(p).vmas().stream().mapToLong(Vma::end)
                .reduce(0, (a, b) -> Long.compareUnsigned(a, b) > 0 ? a : b);
        FakeSyscallException none = assertThrows(FakeSyscallException.class,
                () -> v.iotlb(0, UPDATE, 0x100000, PAGE, above + PAGE));
        assertEquals(Errno.EFAULT, none.errno());
        assertTrue(none.reason().contains("EINVAL"), none.reason());
    }

    @Test
    void aGapBelowAVmaIsAttributedToIt() {
        int rw = libc_h.PROT_READ() | libc_h.PROT_WRITE();
        int memfd = p.memfdCreate("gap", 0);
        p.ftruncate(memfd, 3 * PAGE);
        MemorySegment m = p.mmap(3 * PAGE, rw, libc_h.MAP_SHARED(), memfd, 0);
        p.munmap(m.asSlice(0, PAGE));
        assertEquals(72, v.iotlb(0, UPDATE, 0, 3 * PAGE, m.address()));
        assertEquals(List.of(new MapEntry(0, 3 * PAGE, m.address(), Vhost.RW)), table(0));
    }

    @Test
    void piecesAcrossVmasBecomeSeparateEntries() {
        int rw = libc_h.PROT_READ() | libc_h.PROT_WRITE();
        int memfd = p.memfdCreate("split", 0);
        p.ftruncate(memfd, 4 * PAGE);
        MemorySegment m = p.mmap(4 * PAGE, rw, libc_h.MAP_SHARED(), memfd, 0);
        p.munmap(m.asSlice(PAGE, PAGE));
        assertEquals(72, v.iotlb(0, UPDATE, 0, 4 * PAGE, m.address()));
        assertEquals(List.of(new MapEntry(0, PAGE, m.address(), Vhost.RW),
                new MapEntry(PAGE, 3 * PAGE, m.address() + PAGE, Vhost.RW)), table(0),
                "one entry per VMA; the hole joins the VMA above it");
    }

    @Test
    void failedFirstPieceAtIovaZeroWipesTheAddressSpaceLikeTheKernel() {
        v.iotlb(0, UPDATE, 0x100000, PAGE, ua(0));
        long above = -PAGE;
        assertEquals(Errno.EFAULT, errno(() -> v.iotlb(0, UPDATE, 0, PAGE, above)));
        assertTrue(table(0).isEmpty(), "vhost_vdpa_va_map unmaps [iova, iova-1], which wraps for iova 0");
        v.iotlb(0, UPDATE, 0x100000, PAGE, ua(0));
        assertEquals(Errno.EFAULT, errno(() -> v.iotlb(0, UPDATE, PAGE, PAGE, above)));
        assertEquals(1, table(0).size(), "at any other iova the empty unmap removes nothing");
    }

    @Test
    void resetKeepsTablesButDeviceMapsFollowPersist() {
        v.iotlb(0, UPDATE, 0, PAGE, ua(0));
        assertEquals(1, dev.deviceMap(0).orElseThrow().size());
        v.setStatus(0);
        assertEquals(1, table(0).size());
        assertTrue(dev.deviceMap(0).isEmpty(), "CLEAN_MAP dropped the device's copy");
        assertEquals(Errno.EFAULT, errno(() -> v.iotlb(0, UPDATE, 0, PAGE, ua(0))), "the vhost table survived");
        v.iotlb(0, UPDATE, PAGE, PAGE, ua(1));
        assertEquals(2, dev.deviceMap(0).orElseThrow().size(), "any new message pushes the whole table again");
        v.setU64(VhostIoctl.SET_BACKEND_FEATURES, 0x100);
        v.setStatus(0);
        assertEquals(2, dev.deviceMap(0).orElseThrow().size(), "IOTLB_PERSIST keeps the device maps");
    }

    @Test
    void closeDestroysAddressSpaces() {
        v.iotlb(0, BATCH_BEGIN, 0, 0, 0);
        v.iotlb(0, UPDATE, 0, PAGE, ua(0));
        v.close();
        assertFalse(vhost.hasAddressSpace(0));
        assertEquals(1, dev.counters().calls("reset_map"));
        v = new Vhost(p, "/dev/vhost-vdpa-0");
        v.setOwner();
        v.setU64(VhostIoctl.SET_BACKEND_FEATURES, 0x0E);
        assertEquals(72, v.iotlb(1, UPDATE, 0, PAGE, ua(0)), "the open batch on asid 0 was cleared by close");
        assertEquals(72, v.iotlb(0, UPDATE, 0, PAGE, ua(0)), "the old asid-0 range can be mapped again");
    }

    @Test
    void paModeDevicePinsAndChargesMemlock() {
        try (FakeProcess q = kernel.newProcess(); Vhost m = new Vhost(q, "/dev/vhost-vdpa-2")) {
            m.setOwner();
            MemorySegment anon = q.mmap(1024 * PAGE, libc_h.PROT_READ() | libc_h.PROT_WRITE(),
                    libc_h.MAP_PRIVATE() | libc_h.MAP_ANONYMOUS(), -1, 0);
            assertEquals(72, m.iotlb(0, UPDATE, 0, 16 * PAGE, anon.address()), "PA mode maps anonymous memory");
            assertEquals(16, q.pinnedPages());
            q.setMemlockLimit(20 * PAGE);
            assertEquals(Errno.EFAULT, errno(() -> m.iotlb(0, UPDATE, 16 * PAGE, 8 * PAGE, anon.address())));
            m.iotlb(0, INVALIDATE, 0, PAGE, 0);
            assertEquals(0, q.pinnedPages());
            q.setMemlockLimit(FakeProcess.UNLIMITED);
            FakeSyscallException unmapped = assertThrows(FakeSyscallException.class,
                    () -> m.iotlb(0, UPDATE, 0, PAGE, -PAGE));
            assertTrue(unmapped.reason().contains("EFAULT"), unmapped.reason());
            FakeSyscallException shortPin = assertThrows(FakeSyscallException.class,
                    () -> m.iotlb(0, UPDATE, 0, 1000 * PAGE, anon.address() + 100 * PAGE));
            assertTrue(shortPin.reason().contains("ENOMEM"), shortPin.reason());
        }
    }
    /**
     * What a reviewer saw on a real 6.1 (issue 27): the 2049th single-page UPDATE fails with EFAULT. 6.1.176
     * has no IOTLB entry limit (docs/kernel-profiles.md), but Linux's default RLIMIT_MEMLOCK is 8 MiB = 2048
     * pages and PA mode pins each UPDATE's page again: the 2049th is past the limit (ENOMEM inside). Lifted, as
     * the lane does, it is accepted.
     */
    @Test
    void on61APinnedPagePastRlimitMemlockIsRefusedAndAcceptedOnceLifted() {
        try (FakeKernel k = FakeKernel.builder().kernel(KernelProfiles.byName("6.1").orElseThrow()).build();
                FakeProcess q = k.newProcess(); Vhost m = new Vhost(q, "/dev/vhost-vdpa-0")) {
            m.setOwner();
            MemorySegment page = q.mmap(PAGE, libc_h.PROT_READ() | libc_h.PROT_WRITE(),
                    libc_h.MAP_PRIVATE() | libc_h.MAP_ANONYMOUS(), -1, 0);
            // 4 MiB = 1024 pages, below 6.1.192's entry limit (2048): only the memlock limit can refuse the 1025th
            q.setMemlockLimit(4L << 20);
            for (int i = 0; i < 1024; i++) {
                assertEquals(72, m.iotlb(0, UPDATE, i * 2 * PAGE, PAGE, page.address()));
            }
            FakeSyscallException past = assertThrows(FakeSyscallException.class,
                    () -> m.iotlb(0, UPDATE, 1024 * 2 * PAGE, PAGE, page.address()));
            assertEquals(Errno.EFAULT, past.errno(), past.reason());
            assertTrue(past.reason().contains("failed with ENOMEM") && past.reason().contains("RLIMIT_MEMLOCK"), past.reason());
            q.setMemlockLimit(FakeProcess.UNLIMITED);
            assertEquals(72, m.iotlb(0, UPDATE, 1024 * 2 * PAGE, PAGE, page.address()));
        }
    }

    /**
     * The sequence a real 6.1.176 answered (docs/kernel-profiles.md, pinnedRuns): a 4 KiB INVALIDATE inside a
     * 64 KiB UPDATE of memfd memory leaves the other pages mapped, because vhost_vdpa_pa_map made one entry per
     * physically contiguous run and a pin of 16 pages is modelled as scattered; one of more than a per-CPU batch
     * (63 pages) is modelled as one run, which the INVALIDATE removes whole. 6.12 (VA mode) is one entry either way.
     */
    @Test
    void on61ASmallPinIsOneEntryPerPageAndALargeOneIsOneRun() {
        try (FakeKernel k = FakeKernel.builder().kernel(KernelProfiles.byName("6.1").orElseThrow()).build();
                FakeProcess q = k.newProcess(); Vhost m = new Vhost(q, "/dev/vhost-vdpa-0")) {
            m.setOwner();
            int memfd = q.memfdCreate("guest", 0);
            q.ftruncate(memfd, 128 * PAGE);
            MemorySegment mem = q.mmap(128 * PAGE, libc_h.PROT_READ() | libc_h.PROT_WRITE(), libc_h.MAP_SHARED(), memfd, 0);
            q.close(memfd);
            VhostVdpa sim = VhostVdpaDriver.of(k).vhost(FakeInside.device(k, "vdpa0").orElseThrow());
            assertEquals(72, m.iotlb(0, UPDATE, 0x100000, 16 * PAGE, mem.address()));
            assertEquals(16, sim.iotlbEntries(0).size(), "one entry per page");
            assertEquals(72, m.iotlb(0, INVALIDATE, 0x100000 + 4 * PAGE, PAGE, 0));
            assertEquals(Errno.EFAULT, errno(() -> m.iotlb(0, UPDATE, 0x100000, PAGE, mem.address())), "page 0's entry survived");
            assertEquals(72, m.iotlb(0, UPDATE, 0x100000 + 4 * PAGE, PAGE, mem.address() + 4 * PAGE));
            assertEquals(16, q.pinnedPages());

            assertEquals(72, m.iotlb(0, UPDATE, 0x800000, 64 * PAGE, mem.address() + 64 * PAGE));
            assertEquals(17, sim.iotlbEntries(0).size(), "64 pages: one run");
            assertEquals(72, m.iotlb(0, INVALIDATE, 0x800000 + 4 * PAGE, PAGE, 0));
            assertEquals(72, m.iotlb(0, UPDATE, 0x800000, 64 * PAGE, mem.address() + 64 * PAGE), "the whole run went");
        }
        assertEquals(72, v.iotlb(0, UPDATE, 0x100000, 16 * PAGE, ua(0)));
        assertEquals(1, table(0).size(), "6.12's vdpa_sim maps in VA mode: one entry per VMA piece");
    }
}
