package org.vdpactl.fake.mem;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The fake "mm" of a process: its VMAs. Real host addresses are used, because callers pass
 * {@code segment.address()} as IOTLB {@code uaddr}. Host reservations never overlap, so VMAs
 * overlap only when one file's reservation is mapped more than once (the fake hands out the same
 * addresses again rather than aliasing them elsewhere); overlapping VMAs therefore always agree on
 * file, sharing and IO-ness, and queries look at their union. Each VMA holds one reference on its
 * reservation.
 *
 * <p>Queries share a read lock and changes take the write lock, as the kernel's mmap_lock does:
 * every device of a process reads guest memory through this one object (control-queue commands,
 * pinning checks), and an exclusive lock made them wait for each other.
 */
public final class AddressSpace {
    private static final Comparator<Vma> BY_START = (a, b) -> Long.compareUnsigned(a.start(), b.start());
    private final List<Vma> vmas = new ArrayList<>();
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

    private <T> T reading(Supplier<T> body) {
        lock.readLock().lock();
        try {
            return body.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    private void writing(Runnable body) {
        lock.writeLock().lock();
        try {
            body.run();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Adds a VMA (taking over its reservation reference). */
    public void add(Vma vma) {
        writing(() -> {
            vmas.add(vma);
            vmas.sort(BY_START);
        });
    }

    /**
     * munmap of {@code [start, start+length)}: a VMA with exactly this range goes away (the last
     * mmap of it first); otherwise every VMA the range touches is cut. Holes are fine (Linux
     * returns 0 for them).
     */
    public void remove(long start, long length) {
        writing(() -> removeLocked(start, length));
    }

    private void removeLocked(long start, long length) {
        long end = start + length;
        for (int i = vmas.size() - 1; i >= 0; i--) {
            Vma v = vmas.get(i);
            if (v.start() == start && v.end() == end) {
                vmas.remove(i);
                v.reservation().release();
                return;
            }
        }
        List<Vma> keep = new ArrayList<>();
        for (Vma v : vmas) {
            boolean overlaps = Long.compareUnsigned(v.start(), end) < 0 && Long.compareUnsigned(v.end(), start) > 0;
            if (!overlaps) {
                keep.add(v);
                continue;
            }
            if (Long.compareUnsigned(v.start(), start) < 0) {
                keep.add(new Vma(v.start(), start, v.file(), v.shared(), v.writable(), v.io(), v.reservation().retain()));
            }
            if (Long.compareUnsigned(v.end(), end) > 0) {
                keep.add(new Vma(end, v.end(), v.file(), v.shared(), v.writable(), v.io(), v.reservation().retain()));
            }
            v.reservation().release();
        }
        vmas.clear();
        vmas.addAll(keep);
        vmas.sort(BY_START);
    }

    /**
     * find_vma: the VMA containing {@code address} (the one reaching furthest when several do), else
     * the lowest one starting above it.
     */
    public Optional<Vma> findVma(long address) {
        return reading(() -> findVmaLocked(address));
    }

    private Optional<Vma> findVmaLocked(long address) {
        Vma best = null;
        for (Vma v : vmas) {
            if (v.contains(address) && (best == null || Long.compareUnsigned(v.end(), best.end()) > 0)) {
                best = v;
            }
        }
        if (best != null) {
            return Optional.of(best);
        }
        for (Vma v : vmas) {
            if (Long.compareUnsigned(v.start(), address) > 0) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /** True when every byte of {@code [start, start+length)} lies in some VMA (what pinning needs). */
    public boolean fullyMapped(long start, long length) {
        return reading(() -> fullyMappedLocked(start, length));
    }

    private boolean fullyMappedLocked(long start, long length) {
        long at = start;
        long remaining = length;
        while (remaining != 0) {
            long reach = at;
            for (Vma v : vmas) {
                if (v.contains(at) && Long.compareUnsigned(v.end() - at, reach - at) > 0) {
                    reach = v.end();
                }
            }
            long covered = reach - at;
            if (covered == 0) {
                return false;
            }
            if (Long.compareUnsigned(covered, remaining) >= 0) {
                return true;
            }
            remaining -= covered;
            at = reach;
        }
        return true;
    }

    /**
     * Copies {@code dst.length} bytes from user address {@code address} (the device reading guest
     * memory through the owner's mm); false when no single VMA holds the whole range.
     */
    public boolean read(long address, byte[] dst) {
        return access(address, dst.length, seg -> MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, 0, dst, 0, dst.length));
    }

    /** Copies {@code src} to user address {@code address}; false when no single VMA holds the whole range. */
    public boolean write(long address, byte[] src) {
        return access(address, src.length, seg -> MemorySegment.copy(src, 0, seg, ValueLayout.JAVA_BYTE, 0, src.length));
    }

    private boolean access(long address, long length, Consumer<MemorySegment> body) {
        HostReservation held = reading(() -> {
            for (Vma v : vmas) {
                if (v.contains(address) && Long.compareUnsigned(length, v.end() - address) <= 0) {
                    return v.reservation().retain();
                }
            }
            return null;
        });
        if (held == null) {
            return false;
        }
        long offset = address - held.segment().address();
        try {
            // the reference keeps the host memory mapped even if the VMA goes away meanwhile
            body.accept(held.segment().asSlice(offset, length));
            return true;
        } finally {
            held.release();
        }
    }

    /** All VMAs, lowest first. */
    public List<Vma> vmas() {
        return reading(() -> List.copyOf(vmas));
    }

    /** A copy for fork: the child maps the same memory (each VMA takes another reference). */
    public AddressSpace copyForFork() {
        return reading(() -> {
            AddressSpace child = new AddressSpace();
            for (Vma v : vmas) {
                child.vmas.add(new Vma(v.start(), v.end(), v.file(), v.shared(), v.writable(), v.io(), v.reservation().retain()));
            }
            return child;
        });
    }

    /** Process exit: drops every mapping. */
    public void clear() {
        writing(() -> {
            vmas.forEach(v -> v.reservation().release());
            vmas.clear();
        });
    }
}
