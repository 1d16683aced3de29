package org.vdpactl.fake.vhost;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.fault.DriverCall;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.vfs.KernelConstants;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.device.FakeVdpaDevice;
import org.vdpactl.fake.mem.Vma;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.sys.Errno;

/**
 * The IOTLB half of vhost-vdpa (drivers/vhost/vdpa.c): vhost_vdpa_process_iotlb_msg with its
 * map/unmap helpers (kernel-abi.md §5), fed by vhost.c's message parsing ({@link VhostDev#readIotlbMessage}). Parse errors surface as EINVAL; every handler
 * error as EFAULT, with the handler's own errno kept in the exception's reason.
 */
final class IotlbProcessor {
    private static final Logger LOG = LoggerFactory.getLogger(IotlbProcessor.class);
    private static final int UPDATE = vhost_h.VHOST_IOTLB_UPDATE();
    private static final int INVALIDATE = vhost_h.VHOST_IOTLB_INVALIDATE();
    private static final int BATCH_BEGIN = vhost_h.VHOST_IOTLB_BATCH_BEGIN();
    private static final int BATCH_END = vhost_h.VHOST_IOTLB_BATCH_END();
    private static final long PAGE = KernelConstants.PAGE_SIZE;
    /** pin_user_pages works through one page of struct page pointers at a time. */
    private static final long PIN_CHUNK_PAGES = PAGE / 8;
    private static final int WRITE_ACCESS = vhost_h.VHOST_ACCESS_WO();

    private final VhostVdpa v;
    private final IotlbState state;
    private final FakeVdpaDevice dev;

    IotlbProcessor(VhostVdpa v, IotlbState state, FakeVdpaDevice dev) {
        this.v = v;
        this.state = state;
        this.dev = dev;
    }

    long write(FakeProcess caller, MemorySegment buf) {
        dev.mutex().lock();
        try {
            dev.faultHit(DriverCall.WRITE);
            IotlbMessage m = VhostDev.readIotlbMessage(buf, v.ackedAsid());
            try {
                process(caller, m);
            } catch (KernelError e) {
                throw new KernelError(Errno.EFAULT, null, "IOTLB " + describe(m.type()) + " failed with "
                        + Errno.name(e.errno()) + ": " + e.getMessage());
            }
            return VhostDev.IOTLB_MSG_SIZE;
        } finally {
            dev.mutex().unlock();
            dev.deliverInterrupts(); // a link rule fired at the write raises its config interrupt here
        }
    }

    /** vhost_vdpa_process_iotlb_msg. */
    private void process(FakeProcess caller, IotlbMessage m) {
        if (!v.ownedBy(caller)) {
            throw KernelError.of(Errno.EPERM, "IOTLB message from a process that is not the owner");
        }
        IotlbTable table = state.table(m.asid());
        if (table == null && (m.type() == UPDATE || m.type() == BATCH_BEGIN)) {
            if (Integer.toUnsignedLong(m.asid()) >= dev.nas()) {
                throw KernelError.of(Errno.EINVAL, "asid " + Integer.toUnsignedString(m.asid()) + " >= " + dev.nas());
            }
            table = state.createTable(m.asid(), v.iotlbEntryLimit());
        }
        if (state.inBatch() && state.batchAsid() != m.asid()) {
            throw KernelError.of(Errno.EINVAL, "asid " + m.asid() + " inside a batch on asid " + state.batchAsid());
        }
        if (table == null) {
            throw KernelError.of(Errno.EINVAL, "no address space " + Integer.toUnsignedString(m.asid()));
        }
        if (m.type() == UPDATE) {
            update(caller, table, m);
        } else if (m.type() == INVALIDATE) {
            unmap(caller, table, m.asid(), m.iova(), m.size());
        } else if (m.type() == BATCH_BEGIN) {
            state.beginBatch(m.asid());
        } else if (m.type() == BATCH_END) {
            if (state.inBatch() && dev.spec().ops().setMap()) {
                pushTable(m.asid(), table);
            }
            state.endBatch();
        } else {
            throw KernelError.of(Errno.EINVAL, "IOTLB message type " + describe(m.type()) + " not handled by vhost-vdpa");
        }
    }

    /** vhost_vdpa_process_iotlb_update. */
    private void update(FakeProcess caller, IotlbTable table, IotlbMessage m) {
        long iova = m.iova();
        long size = m.size();
        long last = iova + size - 1;
        if (Long.compareUnsigned(iova, state.iovaFirst()) < 0 || size == 0
                || Long.compareUnsigned(iova, -1L - size + 1) > 0 || Long.compareUnsigned(last, state.iovaLast()) > 0) {
            throw KernelError.of(Errno.EINVAL, String.format("range [%#x, +%#x) outside the IOVA range or wraps", iova, size));
        }
        if (table.overlaps(iova, last)) {
            throw KernelError.of(Errno.EEXIST, String.format("range [%#x, %#x] overlaps an existing entry", iova, last));
        }
        if (dev.spec().ops().vaMode()) {
            vaMap(caller, table, m);
        } else {
            paMap(caller, table, m);
        }
    }

    /**
     * vhost_vdpa_va_map: one entry per VMA piece that is file-backed and shared; other pieces are
     * skipped. On failure it unmaps {@code [iova, map_iova)} — note that when the very first piece
     * fails that range is empty and, for iova 0, the kernel's size-0 unmap wraps to the whole space.
     */
    private void vaMap(FakeProcess caller, IotlbTable table, IotlbMessage m) {
        long mapIova = m.iova();
        long uaddr = m.uaddr();
        long remaining = m.size();
        try {
            while (remaining != 0) {
                final long at = uaddr;
                Vma vma = FakeInside.addressSpace(caller).findVma(at).orElseThrow(() -> KernelError.of(Errno.EINVAL,
                        String.format("no VMA at or after uaddr %#x", at)));
                long pieceSize = Long.compareUnsigned(remaining, vma.end() - uaddr) < 0 ? remaining : vma.end() - uaddr;
                if (vma.iotlbMappable()) {
                    map(caller, table, m.asid(), new MapEntry(mapIova, pieceSize, uaddr, m.perm()), vma.file());
                }
                remaining -= pieceSize;
                uaddr += pieceSize;
                mapIova += pieceSize;
            }
        } catch (KernelError e) {
            unmap(caller, table, m.asid(), m.iova(), mapIova - m.iova());
            throw e;
        }
    }

    /**
     * vhost_vdpa_pa_map: checks RLIMIT_MEMLOCK, pins {@code [uaddr, uaddr+size)} (all of it must be
     * mapped, and writable when the permission includes write: FOLL_WRITE; a page that cannot be pinned
     * at the start of a pin chunk is EFAULT, later in it a short pin = ENOMEM) and maps one entry per
     * physically contiguous run of the pinned pages. Where runs end is the page allocator's choice; the
     * kernel profile's {@code pinnedRuns} says how the fake places them (6.1: a small pin is scattered, one
     * entry per page from the page-aligned IOVA, as the kernel's {@code iova &= PAGE_MASK}; a larger one is
     * one run).
     */
    private void paMap(FakeProcess caller, IotlbTable table, IotlbMessage m) {
        long offsetInPage = m.iova() & (PAGE - 1);
        if (Long.compareUnsigned(m.size(), -1L - offsetInPage) > 0) {
            throw KernelError.of(Errno.EINVAL, "size overflows with the page offset");
        }
        long npages = Long.divideUnsigned(m.size() + offsetInPage + PAGE - 1, PAGE);
        if (npages == 0) {
            throw KernelError.of(Errno.EINVAL, "no pages to pin");
        }
        if (!caller.memlockAllows(npages)) {
            throw KernelError.of(Errno.ENOMEM, npages + " more pinned pages exceed RLIMIT_MEMLOCK");
        }
        try {
            long base = m.uaddr() & -PAGE;
            boolean write = (m.perm() & WRITE_ACCESS) != 0; // gup_flags |= FOLL_WRITE
            Optional<Long> hole = firstUnmappedPage(caller, base, npages).or(() -> write
                    ? firstReadOnlyPage(caller, base, npages) : Optional.empty());
            if (hole.isPresent()) {
                boolean chunkStart = hole.get() % PIN_CHUNK_PAGES == 0;
                throw KernelError.of(chunkStart ? Errno.EFAULT : Errno.ENOMEM,
                        String.format("cannot pin page %d of %d at %#x", hole.get(), npages, base));
            }
            long pagesPerEntry = v.kernel().vhost().pinnedRuns().pagesPerEntry(npages);
            if (pagesPerEntry >= npages) {
                map(caller, table, m.asid(), new MapEntry(m.iova(), m.size(), m.uaddr(), m.perm()), null);
            } else {
                long iova = m.iova() & -PAGE;
                for (long page = 0; page < npages; page += pagesPerEntry) {
                    map(caller, table, m.asid(), new MapEntry(iova + page * PAGE, pagesPerEntry * PAGE,
                            base + page * PAGE, m.perm()), null);
                }
            }
        } catch (KernelError e) {
            unmap(caller, table, m.asid(), m.iova(), m.size());
            throw e;
        }
    }

    /**
     * GUP's check_vma_flags: a write pin (FOLL_WRITE, without FOLL_FORCE) of a VMA without VM_WRITE
     * is -EFAULT for that page, whether the mapping is private or shared (mm/gup.c of 6.1.176).
     */
    private static Optional<Long> firstReadOnlyPage(FakeProcess caller, long base, long npages) {
        long end = base + npages * PAGE;
        for (long at = base; Long.compareUnsigned(at, end) < 0; ) {
            Optional<Vma> vma = FakeInside.addressSpace(caller).findVma(at);
            if (vma.isEmpty()) {
                return Optional.empty();
            }
            if (!vma.get().writable()) {
                return Optional.of(Long.divideUnsigned(Math.max(at, vma.get().start()) - base, PAGE));
            }
            at = vma.get().end();
        }
        return Optional.empty();
    }

    private static Optional<Long> firstUnmappedPage(FakeProcess caller, long base, long npages) {
        if (FakeInside.addressSpace(caller).fullyMapped(base, npages * PAGE)) {
            return Optional.empty();
        }
        for (long i = 0; i < npages; i++) {
            if (!FakeInside.addressSpace(caller).fullyMapped(base + i * PAGE, PAGE)) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    /** vhost_vdpa_map: add the entry, then tell the device (dma_map / set_map unless batching). */
    private void map(FakeProcess caller, IotlbTable table, int asid, MapEntry entry, Object file) {
        table.add(entry, file);
        try {
            if (dev.spec().ops().dmaMap()) {
                dev.dmaMap(asid, entry);
            } else if (dev.spec().ops().setMap() && !state.inBatch()) {
                dev.setMap(asid, table.entries());
            }
        } catch (KernelError e) {
            table.remove(entry);
            throw e;
        }
        if (!dev.spec().ops().vaMode()) {
            caller.addPinnedPages(entry.size() / PAGE);
        }
    }

    /** vhost_vdpa_unmap: removes every whole overlapping entry; set_map devices get the new table (result ignored). */
    void unmap(FakeProcess caller, IotlbTable table, int asid, long iova, long size) {
        unmapRange(caller, table, asid, iova, iova + size - 1);
        if (dev.spec().ops().setMap() && !state.inBatch()) {
            pushTable(asid, table);
        }
    }

    private void unmapRange(FakeProcess caller, IotlbTable table, int asid, long first, long last) {
        for (IotlbTable.Mapped removed : table.removeOverlapping(first, last)) {
            if (!dev.spec().ops().vaMode() && caller != null) {
                caller.addPinnedPages(-(removed.entry().size() / PAGE));
            }
            if (dev.spec().ops().dmaMap()) {
                try {
                    dev.dmaUnmap(asid, removed.entry());
                } catch (KernelError e) {
                    LOG.info("{}: dma_unmap failed: {}", dev.name(), e.getMessage());
                }
            }
        }
    }

    /** set_map calls whose result the kernel ignores (BATCH_END, unmap). */
    private void pushTable(int asid, IotlbTable table) {
        try {
            dev.setMap(asid, table.entries());
        } catch (KernelError e) {
            LOG.info("{}: set_map(asid {}) failed and the kernel ignores it: {}", dev.name(), asid, e.getMessage());
        }
    }

    /** vhost_vdpa_remove_as (at close): unmap everything, then reset_map. */
    void removeAddressSpace(int asid) {
        IotlbTable table = state.removeTable(asid);
        if (table == null) {
            return;
        }
        unmapRange(v.owner(), table, asid, 0, -1L);
        if (dev.spec().ops().has("reset_map")) {
            try {
                dev.resetMap(asid);
            } catch (KernelError e) {
                LOG.info("{}: reset_map(asid {}) failed: {}", dev.name(), asid, e.getMessage());
            }
        }
    }

    static String describe(int type) {
        return switch (type) {
            case 1 -> "MISS";
            case 2 -> "UPDATE";
            case 3 -> "INVALIDATE";
            case 4 -> "ACCESS_FAIL";
            case 5 -> "BATCH_BEGIN";
            case 6 -> "BATCH_END";
            default -> "type " + type;
        };
    }
}
