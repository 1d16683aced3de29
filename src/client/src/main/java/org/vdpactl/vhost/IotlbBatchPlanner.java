package org.vdpactl.vhost;

import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Turns a memory layout (a list of {@link IotlbRegion}s for one address space) into IOTLB messages:
 * <ul>
 *   <li>every region is checked before anything is written: size 0, 64-bit overflow, outside the
 *       device's IOVA range (GET_IOVA_RANGE), overlap with another region — each of which the kernel
 *       would reject mid-way with EINVAL or an opaque EFAULT;</li>
 *   <li>regions larger than {@link #maxPagesPerBatch()} pages are split into UPDATEs of at most that
 *       many pages;</li>
 *   <li>UPDATEs are grouped into BATCH_BEGIN..BATCH_END groups of at most {@link #maxPagesPerBatch()}
 *       pages and {@link #maxEntriesPerBatch()} entries, so one huge batch cannot stall the device:
 *       the default 50,000 pages mirrors the mlx5 firmware page-reclaim cap ("net/mlx5: Reclaim max
 *       50K pages at once", 6.12);</li>
 *   <li>the whole plan must fit the kernel's 2048-entry limit per address space
 *       ({@code vhost_vdpa.max_iotlb_entries}).</li>
 * </ul>
 * Batching is on by default: for set_map drivers (mlx5, vdpa_sim) every un-batched UPDATE re-runs
 * set_map over the whole IOTLB, so R regions cost R set_map calls instead of one per batch.
 * Requires IOTLB_BATCH acked for the hints to matter (the kernel accepts BATCH messages regardless).
 * Instances are immutable and thread-safe.
 */
public final class IotlbBatchPlanner {
    /** mlx5_core's MAX_RECLAIM_NPAGES (6.12+). */
    public static final long DEFAULT_MAX_PAGES_PER_BATCH = 50_000;
    /** vhost_vdpa's default {@code max_iotlb_entries} per address space. */
    public static final int KERNEL_MAX_ENTRIES_PER_AS = 2048;
    public static final long DEFAULT_PAGE_SIZE = 4096;

    private final long maxPagesPerBatch;
    private final int maxEntriesPerBatch;
    private final int maxEntriesPerAddressSpace;
    private final long pageSize;
    private final boolean batching;

    private IotlbBatchPlanner(Builder b) {
        this.maxPagesPerBatch = b.maxPagesPerBatch;
        this.maxEntriesPerBatch = b.maxEntriesPerBatch;
        this.maxEntriesPerAddressSpace = b.maxEntriesPerAddressSpace;
        this.pageSize = b.pageSize;
        this.batching = b.batching;
    }

    /** The defaults: batching on, 50,000 pages and 2048 entries per batch, 4 KiB pages. */
    public static IotlbBatchPlanner defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public long maxPagesPerBatch() {
        return maxPagesPerBatch;
    }

    public int maxEntriesPerBatch() {
        return maxEntriesPerBatch;
    }

    public int maxEntriesPerAddressSpace() {
        return maxEntriesPerAddressSpace;
    }

    public long pageSize() {
        return pageSize;
    }

    public boolean batching() {
        return batching;
    }

    /**
     * The messages that map {@code regions} into address space {@code asid}.
     *
     * @param range the device's IOVA range (from {@link VhostVdpaDevice#getIovaRange()})
     * @throws IotlbPlanException naming the first region that cannot be mapped
     */
    public IotlbPlan planMap(int asid, List<IotlbRegion> regions, IovaRange range) {
        validate(regions, range);
        long chunkBytes = maxPagesPerBatch * pageSize;
        // counted first, then written straight into the plan: no per-chunk object between the two
        long count = 0;
        for (IotlbRegion r : regions) {
            count += Long.divideUnsigned(r.size(), chunkBytes) + (Long.remainderUnsigned(r.size(), chunkBytes) == 0 ? 0 : 1);
        }
        if (count > maxEntriesPerAddressSpace) {
            throw new IotlbPlanException(-1, "the layout needs " + count + " IOTLB entries in address space " + asid
                    + " but the kernel allows " + maxEntriesPerAddressSpace
                    + " (vhost_vdpa max_iotlb_entries); use fewer, larger regions (huge pages)");
        }
        Grouper g = new Grouper(asid, IotlbMessageType.UPDATE, (int) count);
        for (IotlbRegion r : regions) {
            long done = 0;
            while (Long.compareUnsigned(done, r.size()) < 0) {
                long left = r.size() - done;
                long len = Long.compareUnsigned(left, chunkBytes) > 0 ? chunkBytes : left;
                g.add(r.iova() + done, len, r.hostAddress() + done, r.perm().code());
                done += len;
            }
        }
        return g.plan();
    }

    /**
     * The INVALIDATE messages that remove {@code regions} from address space {@code asid}. The kernel
     * removes every whole entry that overlaps a range; no range check is needed (invalidating an
     * unmapped range succeeds).
     */
    public IotlbPlan planUnmap(int asid, List<IotlbRegion> regions) {
        Grouper g = new Grouper(asid, IotlbMessageType.INVALIDATE, regions.size());
        for (IotlbRegion r : regions) {
            g.add(r.iova(), r.size(), 0, 0);
        }
        return g.plan();
    }

    /** Puts UPDATEs or INVALIDATEs into BATCH_BEGIN..BATCH_END groups as they come (see the class comment). */
    private final class Grouper {
        private final int asid;
        private final int kind;
        private final IotlbPlan.Builder b;
        private boolean open;
        private long pagesInBatch;
        private int entriesInBatch;

        Grouper(int asid, IotlbMessageType kind, int entries) {
            this.asid = asid;
            this.kind = kind.code();
            // the entries and one BEGIN/END pair per batch the entry limit makes; a page limit may add more (the builder grows)
            int batches = batching ? (entries + maxEntriesPerBatch - 1) / maxEntriesPerBatch : 0;
            this.b = new IotlbPlan.Builder(entries + 2 * batches);
        }

        void add(long iova, long size, long uaddr, int perm) {
            long pages = pages(iova, size);
            if (batching && open && (entriesInBatch == maxEntriesPerBatch || pagesInBatch + pages > maxPagesPerBatch)) {
                b.add(asid, IotlbMessageType.BATCH_END.code(), 0, 0, 0, 0);
                open = false;
            }
            if (batching && !open) {
                b.add(asid, IotlbMessageType.BATCH_BEGIN.code(), 0, 0, 0, 0);
                open = true;
                pagesInBatch = 0;
                entriesInBatch = 0;
            }
            b.add(asid, kind, iova, size, uaddr, perm);
            pagesInBatch += pages;
            entriesInBatch++;
        }

        IotlbPlan plan() {
            if (open) {
                b.add(asid, IotlbMessageType.BATCH_END.code(), 0, 0, 0, 0);
                open = false;
            }
            return b.build();
        }
    }

    /** Pages touched by [iova, iova+size), saturating. */
    private long pages(long iova, long size) {
        long head = Long.remainderUnsigned(iova, pageSize);
        long whole = Long.divideUnsigned(size, pageSize);
        long rest = Long.remainderUnsigned(size, pageSize) + head;
        long extra = (rest + pageSize - 1) / pageSize;
        return whole + extra < 0 ? Long.MAX_VALUE : whole + extra;
    }

    private void validate(List<IotlbRegion> regions, IovaRange range) {
        for (int i = 0; i < regions.size(); i++) {
            IotlbRegion r = regions.get(i);
            if (r.size() == 0) {
                throw new IotlbPlanException(i, "size 0 (" + r + "); the kernel rejects an UPDATE of size 0 with EINVAL");
            }
            if (Long.compareUnsigned(r.iova(), -r.size()) > 0) {
                throw new IotlbPlanException(i, r + " wraps past 2^64");
            }
            if (!range.contains(r.iova(), r.size())) {
                throw new IotlbPlanException(i, r + " lies outside the device's IOVA range " + range
                        + " (VHOST_VDPA_GET_IOVA_RANGE); the kernel would fail the write with EFAULT");
            }
        }
        // overlaps: a layout in ascending IOVA order (the usual one) is checked in one pass without sorting
        boolean ascending = true;
        for (int k = 1; k < regions.size() && ascending; k++) {
            ascending = Long.compareUnsigned(regions.get(k - 1).iova(), regions.get(k).iova()) < 0;
        }
        int[] order = new int[regions.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        if (!ascending) {
            order = IntStream.range(0, regions.size()).boxed()
                    .sorted(Comparator.comparing(i -> regions.get(i).iova(), Long::compareUnsigned)).mapToInt(Integer::intValue).toArray();
        }
        for (int k = 1; k < order.length; k++) {
            IotlbRegion prev = regions.get(order[k - 1]);
            IotlbRegion cur = regions.get(order[k]);
            long prevLast = prev.iova() + prev.size() - 1;
            if (Long.compareUnsigned(cur.iova(), prevLast) <= 0) {
                throw new IotlbPlanException(order[k], cur + " overlaps region " + order[k - 1] + " (" + prev
                        + "); the kernel refuses overlapping UPDATEs (EEXIST, seen as EFAULT)");
            }
        }
    }

    /** Planner settings. */
    public static final class Builder {
        private long maxPagesPerBatch = DEFAULT_MAX_PAGES_PER_BATCH;
        private int maxEntriesPerBatch = KERNEL_MAX_ENTRIES_PER_AS;
        private int maxEntriesPerAddressSpace = KERNEL_MAX_ENTRIES_PER_AS;
        private long pageSize = DEFAULT_PAGE_SIZE;
        private boolean batching = true;

        private Builder() {
        }

        /** Upper bound of pages per batch and per UPDATE (bigger regions are split). */
        public Builder maxPagesPerBatch(long pages) {
            if (pages <= 0) {
                throw new IllegalArgumentException("maxPagesPerBatch must be positive: " + pages);
            }
            this.maxPagesPerBatch = pages;
            return this;
        }

        /** Upper bound of UPDATE/INVALIDATE messages per batch, 1..2048. */
        public Builder maxEntriesPerBatch(int entries) {
            if (entries <= 0 || entries > KERNEL_MAX_ENTRIES_PER_AS) {
                throw new IllegalArgumentException("maxEntriesPerBatch must be 1.." + KERNEL_MAX_ENTRIES_PER_AS + ": " + entries);
            }
            this.maxEntriesPerBatch = entries;
            return this;
        }

        /** The kernel's entry limit per address space (a module parameter; 2048 by default). */
        public Builder maxEntriesPerAddressSpace(int entries) {
            if (entries <= 0) {
                throw new IllegalArgumentException("maxEntriesPerAddressSpace must be positive: " + entries);
            }
            this.maxEntriesPerAddressSpace = entries;
            return this;
        }

        public Builder pageSize(long bytes) {
            if (bytes <= 0 || Long.bitCount(bytes) != 1) {
                throw new IllegalArgumentException("page size must be a power of two: " + bytes);
            }
            this.pageSize = bytes;
            return this;
        }

        /** False: plain UPDATEs without BATCH_BEGIN/END (for devices where batching is not acked). */
        public Builder batching(boolean on) {
            this.batching = on;
            return this;
        }

        public IotlbBatchPlanner build() {
            if (maxPagesPerBatch > Long.MAX_VALUE / pageSize) {
                throw new IllegalArgumentException("maxPagesPerBatch * pageSize overflows");
            }
            return new IotlbBatchPlanner(this);
        }
    }
}
