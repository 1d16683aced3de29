package org.vdpactl.sys;

import java.lang.foreign.MemorySegment;

/**
 * A view of native memory that a downcall passes without acquiring and releasing its arena.
 *
 * <p>Why: FFM keeps a segment's arena open for the length of every downcall it is passed to. For a segment of a
 * shared arena that is two atomic read-modify-writes on the arena per call, and every access to any arena's segment
 * checks that it is alive: costs paid by every IOTLB message on the hot path. The view made here has the global scope,
 * so the downcall and the encoder's stores skip them.
 *
 * <p>The price is the arena's protection: the view does not know when the memory is freed. A caller may use it only
 * where it can show that its arena is alive and stays so meanwhile (a device handle: under its one-thread guard, after
 * checking that it is open, keeping itself, the holder of its automatic arena, reachable until the call returns).
 * Here, in the one module that calls restricted FFM methods ({@code reinterpret}).
 */
public final class SessionFreeView {
    private SessionFreeView() {
    }

    /** The same bytes as {@code segment} (address and size), in the global scope. */
    public static MemorySegment of(MemorySegment segment) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("not native memory: " + segment);
        }
        return MemorySegment.ofAddress(segment.address()).reinterpret(segment.byteSize());
    }
}
