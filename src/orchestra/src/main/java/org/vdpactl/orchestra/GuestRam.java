package org.vdpactl.orchestra;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.GuestMemory;
import org.vdpactl.vhost.IotlbBatchPlanner;
import org.vdpactl.vhost.IotlbPermission;
import org.vdpactl.vhost.IotlbRegion;

/**
 * The guest memory of a rehearsal: one shared memfd mapping (see {@link GuestMemory}) holding the
 * regions of a {@link GuestMemoryLayout} back to back, shared by every device as a VM's RAM is. On
 * the fake kernel the mapping only reserves address space; the few pages the virtqueue rings use
 * are the only ones ever touched. Also hands out ring space to the lanes.
 */
final class GuestRam implements AutoCloseable {
    /** Rings start this far into their region, away from guest address 0. */
    private static final long RING_AREA_OFFSET = 1L << 20;
    static final long PAGE = 4096;
    private static final long GIB = 1L << 30;

    private final GuestMemory memory;
    private final GuestMemoryLayout layout;
    private long ringCursor = -1;
    private int ringRegion = -1;

    private GuestRam(GuestMemory memory, GuestMemoryLayout layout) {
        this.memory = memory;
        this.layout = layout;
    }

    static GuestRam allocate(Syscalls sys, GuestMemoryLayout layout) {
        try {
            return new GuestRam(GuestMemory.create(sys, "vdpactl-guest", layout.totalBytes()), layout);
        } catch (SyscallException e) {
            if (!e.is(Errno.ENOMEM)) {
                throw e;
            }
            // "mmap: ENOMEM" alone says neither how much nor what to change: the size asked and where it came from
            throw e.withOperation(e.operation() + " of the guest memory, " + layout.totalBytes() + " bytes ("
                    + (layout.totalBytes() >> 30) + " GiB, the sum of the memory layout's regions: --memory or --memory-layout),"
                    + " which the rehearsal maps whole as a VMM does; give a smaller --memory, or allow the process more"
                    + " address space (ulimit -v) or overcommit (vm.overcommit_memory)");
        }
    }

    GuestMemoryLayout layout() {
        return layout;
    }

    /**
     * The layout as IOTLB regions over this memory, read-write. Memory backed by pages smaller than
     * 1 GiB is mapped as one page-sized run plus the rest per GiB: host memory of that page size
     * loses physical contiguity somewhere in every GiB, which is what makes a set_map driver such as
     * mlx5 translate it at page granularity (mlx5-model.md §2.2, §4.5.6). The kernel splits pinned
     * memory at physical discontinuities anyway; the explicit runs make the granularity the same on
     * the fake kernel, which treats pinned memory as contiguous. When that would exceed the kernel's
     * IOTLB entry limit, each region is one entry.
     */
    List<IotlbRegion> iotlbRegions() {
        List<IotlbRegion> runs = new ArrayList<>();
        List<IotlbRegion> whole = new ArrayList<>();
        for (int i = 0; i < layout.regions().size(); i++) {
            GuestMemoryLayout.Region r = layout.regions().get(i);
            long host = layout.hostOffset(i);
            whole.add(memory.region(host, r.size(), r.iova(), IotlbPermission.RW));
            for (long off = 0; off < r.size(); off += GIB) {
                long piece = Math.min(GIB, r.size() - off);
                long first = Math.min(r.pageSize(), piece);
                runs.add(memory.region(host + off, first, r.iova() + off, IotlbPermission.RW));
                if (piece > first) {
                    runs.add(memory.region(host + off + first, piece - first, r.iova() + off + first, IotlbPermission.RW));
                }
            }
        }
        return runs.size() <= IotlbBatchPlanner.KERNEL_MAX_ENTRIES_PER_AS ? runs : whole;
    }

    /**
     * Reserves {@code bytes} (a page multiple) of ring space inside guest RAM and returns it as
     * (host slice, IOVA). Rings of all lanes go into the first region with room, from 1 MiB on.
     */
    RingSpace reserveRings(long bytes) {
        if (ringRegion < 0) {
            for (int i = 0; i < layout.regions().size(); i++) {
                if (layout.regions().get(i).size() > RING_AREA_OFFSET) {
                    ringRegion = i;
                    ringCursor = RING_AREA_OFFSET;
                    break;
                }
            }
        }
        GuestMemoryLayout.Region r = ringRegion < 0 ? null : layout.regions().get(ringRegion);
        if (r == null || ringCursor + bytes > r.size()) {
            throw new IllegalArgumentException("guest memory too small for the virtqueue rings: the first region"
                    + " larger than 1 MiB must hold 1 MiB + " + bytes + " bytes per device");
        }
        long hostOffset = layout.hostOffset(ringRegion) + ringCursor;
        RingSpace space = new RingSpace(memory.segment().asSlice(hostOffset, bytes), r.iova() + ringCursor);
        ringCursor += bytes;
        return space;
    }

    /**
     * Ring memory of one lane.
     *
     * @param memory host view
     * @param iova   device address of its first byte
     */
    record RingSpace(MemorySegment memory, long iova) {
        RingSpace slice(long offset, long length) {
            return new RingSpace(memory.asSlice(offset, length), iova + offset);
        }
    }

    @Override
    public void close() {
        memory.close();
    }
}
