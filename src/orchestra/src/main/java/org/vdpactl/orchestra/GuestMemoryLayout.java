package org.vdpactl.orchestra;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The guest's RAM as the device sees it: regions at guest-physical addresses (IOVAs), each backed by
 * host memory of one page size, with holes between them where the guest has none (the x86 PCI hole
 * below 4 GiB). Regions are laid out back to back in one shared host mapping, in IOVA order.
 * Immutable.
 *
 * @param regions the regions, IOVA-sorted, non-overlapping
 */
public record GuestMemoryLayout(List<Region> regions) {
    /** Where x86 machines (QEMU q35) stop low RAM: everything above goes above 4 GiB. */
    public static final long X86_LOW_RAM_LIMIT = 2L << 30;
    /** Start of high RAM on x86. */
    public static final long X86_HIGH_RAM_START = 4L << 30;
    /**
     * The most guest RAM a layout may describe: 2^52 bytes (4 PiB), the widest guest-physical address
     * space of an x86-64 CPU (MAXPHYADDR is at most 52 bits). A larger size cannot be a guest's, and
     * is refused before anything is allocated.
     */
    public static final long MAX_GUEST_RAM = 1L << 52;
    /**
     * The most regions {@link #of} cuts: KVM_USER_MEM_SLOTS on x86 (SHRT_MAX - 3 internal slots = 32764;
     * kvm_vm_ioctl_set_memory_region refuses a slot id beyond it), since a guest's RAM cannot be
     * split into more memory slots than that. Refused before the regions are built.
     */
    public static final long MAX_REGIONS = 32764;

    /**
     * One region.
     *
     * @param iova     guest-physical address (IOVA) of the first byte
     * @param size     bytes
     * @param pageSize host page size backing it (4 KiB, 2 MiB, 1 GiB): how finely a driver must translate it.
     *                 The rehearsal maps each GiB of the region as one page-sized run plus the rest, as
     *                 pinned memory of that page size ends up in the IOTLB when its physical
     *                 contiguity breaks once per GiB (mlx5-model.md §4.5.6)
     */
    public record Region(long iova, long size, long pageSize) {
        public Region {
            if (size <= 0) {
                throw new IllegalArgumentException("region size must be positive: " + size);
            }
            if (pageSize <= 0 || Long.bitCount(pageSize) != 1) {
                throw new IllegalArgumentException("page size must be a power of two: " + pageSize);
            }
            if (iova % pageSize != 0 || size % pageSize != 0) {
                throw new IllegalArgumentException(String.format(
                        "region at %#x of %d bytes is not aligned to its page size %d", iova, size, pageSize));
            }
            if (Long.compareUnsigned(iova, -size) > 0) {
                throw new IllegalArgumentException(String.format("region at %#x of %d bytes wraps past 2^64", iova, size));
            }
        }

        /** One past the last IOVA. */
        public long end() {
            return iova + size;
        }
    }

    public GuestMemoryLayout {
        if (regions.isEmpty()) {
            throw new IllegalArgumentException("a memory layout needs at least one region");
        }
        List<Region> sorted = new ArrayList<>(regions);
        sorted.sort(Comparator.comparing(Region::iova, Long::compareUnsigned));
        for (int i = 1; i < sorted.size(); i++) {
            Region prev = sorted.get(i - 1);
            if (Long.compareUnsigned(sorted.get(i).iova(), prev.end()) < 0) {
                throw new IllegalArgumentException(String.format("regions at %#x and %#x overlap", prev.iova(),
                        sorted.get(i).iova()));
            }
        }
        regions = List.copyOf(sorted);
    }

    /**
     * {@code total} bytes cut into regions of {@code regionSize} (the last one shorter), as a QEMU x86
     * guest has them when {@code x86Hole}: up to 2 GiB from 0, the rest from 4 GiB. Without the hole
     * the memory is one run from IOVA 0.
     */
    public static GuestMemoryLayout of(long total, long regionSize, long pageSize, boolean x86Hole) {
        if (total <= 0 || regionSize <= 0) {
            throw new IllegalArgumentException("memory and region sizes must be positive");
        }
        if (total > MAX_GUEST_RAM) {
            throw new IllegalArgumentException("memory of " + total + " bytes is more than a guest can have (at most 2^52 bytes = 4 PiB:"
                    + " the widest guest-physical address space of an x86-64 CPU)");
        }
        long cuts = (x86Hole && total > X86_LOW_RAM_LIMIT ? ceilDiv(X86_LOW_RAM_LIMIT, regionSize) + ceilDiv(total - X86_LOW_RAM_LIMIT,
                regionSize) : ceilDiv(total, regionSize));
        if (cuts > MAX_REGIONS) {
            throw new IllegalArgumentException("memory of " + total + " bytes in regions of " + regionSize + " bytes makes " + cuts
                    + " regions; a guest has at most " + MAX_REGIONS + " (KVM's memory slots on x86): give larger regions");
        }
        if (total % pageSize != 0 || regionSize % pageSize != 0) {
            throw new IllegalArgumentException("memory (" + total + ") and region size (" + regionSize
                    + ") must be multiples of the page size " + pageSize);
        }
        List<Region> out = new ArrayList<>();
        if (x86Hole && total > X86_LOW_RAM_LIMIT) {
            cut(out, 0, X86_LOW_RAM_LIMIT, regionSize, pageSize);
            cut(out, X86_HIGH_RAM_START, total - X86_LOW_RAM_LIMIT, regionSize, pageSize);
        } else {
            cut(out, 0, total, regionSize, pageSize);
        }
        return new GuestMemoryLayout(out);
    }

    private static long ceilDiv(long bytes, long unit) {
        return bytes / unit + (bytes % unit == 0 ? 0 : 1);
    }

    private static void cut(List<Region> out, long iova, long bytes, long regionSize, long pageSize) {
        long done = 0;
        while (done < bytes) {
            long len = Math.min(regionSize, bytes - done);
            out.add(new Region(iova + done, len, pageSize));
            done += len;
        }
    }

    /** Bytes of RAM (holes excluded). */
    public long totalBytes() {
        return regions.stream().mapToLong(Region::size).sum();
    }

    /** One past the highest IOVA. */
    public long endIova() {
        return regions.getLast().end();
    }

    /** Offset of region {@code i} in the host mapping (regions are back to back). */
    public long hostOffset(int i) {
        long off = 0;
        for (int k = 0; k < i; k++) {
            off += regions.get(k).size();
        }
        return off;
    }

    /** The smallest page size of any region. */
    public long smallestPageSize() {
        return regions.stream().mapToLong(Region::pageSize).min().orElseThrow();
    }

    /**
     * The same layout cut down to at most {@code maxBytes} of RAM: whole regions are kept from the
     * lowest IOVA up, the last kept one shortened (to a page multiple) where needed.
     */
    public GuestMemoryLayout truncatedTo(long maxBytes) {
        if (maxBytes >= totalBytes()) {
            return this;
        }
        List<Region> out = new ArrayList<>();
        long left = maxBytes;
        for (Region r : regions) {
            if (left < r.pageSize()) {
                break;
            }
            long len = Math.min(r.size(), left - left % r.pageSize());
            out.add(new Region(r.iova(), len, r.pageSize()));
            left -= len;
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("cannot fit any guest memory into " + maxBytes + " bytes");
        }
        return new GuestMemoryLayout(out);
    }

    /** Number of IOVA gaps between regions. */
    public int holes() {
        int n = 0;
        for (int i = 1; i < regions.size(); i++) {
            if (regions.get(i).iova() != regions.get(i - 1).end()) {
                n++;
            }
        }
        return n;
    }
}
