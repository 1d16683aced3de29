package org.vdpactl.fake.mem;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A block of host memory shared by every fake mapping (VMA) and file that refers to it; it is
 * given back to the host when the last reference is dropped.
 */
public final class HostReservation {
    private final MemorySegment segment;
    private final Runnable free;
    private final AtomicInteger refs = new AtomicInteger(1);

    public HostReservation(MemorySegment segment, Runnable free) {
        this.segment = segment;
        this.free = free;
    }

    public MemorySegment segment() {
        return segment;
    }

    public long size() {
        return segment.byteSize();
    }

    /** Adds a reference and returns this. */
    public HostReservation retain() {
        if (refs.getAndUpdate(r -> r == 0 ? 0 : r + 1) == 0) {
            throw new IllegalStateException("reservation already freed");
        }
        return this;
    }

    /** Drops a reference; the memory is freed with the last one. */
    public void release() {
        if (refs.decrementAndGet() == 0) {
            free.run();
        }
    }

    /** True while someone holds a reference. */
    public boolean isLive() {
        return refs.get() > 0;
    }
}
