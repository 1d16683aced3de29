package org.vdpactl.vhost;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.vring_avail;
import org.vdpactl.ffi.gen.vhost.vring_desc;
import org.vdpactl.ffi.gen.vhost.vring_used;

/**
 * The driver's side of a split virtqueue in memory the caller owns (virtio 1.x §2.7), laid out as
 * the kernel's uapi {@code struct vring_desc}, {@code vring_avail} and {@code vring_used} say: what
 * a guest, or QEMU's shadow virtqueue, writes for the device to read. It keeps the next avail index,
 * so a ring handed to another device continues where the last one stopped. One thread at a time.
 */
public final class SplitRing {
    /** The descriptor continues in {@code next}. */
    public static final int DESC_F_NEXT = vhost_h.VRING_DESC_F_NEXT();
    /** The device writes the buffer (device-writable, e.g. an ack byte). */
    public static final int DESC_F_WRITE = vhost_h.VRING_DESC_F_WRITE();

    private static final long AVAIL_RING_ENTRY = vring_avail.ring$layout().elementLayout().byteSize();

    private final MemorySegment desc;
    private final MemorySegment avail;
    private final MemorySegment used;
    private final int size;
    private int nextAvail;

    /**
     * @param desc  the descriptor table, at least {@link #descBytes(int)} long
     * @param avail the available ring, at least {@link #availBytes(int)} long
     * @param used  the used ring, at least {@link #usedBytes(int)} long
     * @param size  queue size (a power of two)
     */
    public SplitRing(MemorySegment desc, MemorySegment avail, MemorySegment used, int size) {
        if (size <= 0 || Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("queue size must be a power of two: " + size);
        }
        if (desc.byteSize() < descBytes(size) || avail.byteSize() < availBytes(size) || used.byteSize() < usedBytes(size)) {
            throw new IllegalArgumentException("ring areas too small for " + size + " entries");
        }
        this.desc = desc;
        this.avail = avail;
        this.used = used;
        this.size = size;
    }

    /** Bytes of a descriptor table of {@code size} entries. */
    public static long descBytes(int size) {
        return size * vring_desc.layout().byteSize();
    }

    /** Bytes of an available ring of {@code size} entries (without the used-event word). */
    public static long availBytes(int size) {
        return vring_avail.ring$offset() + size * AVAIL_RING_ENTRY;
    }

    /** Bytes of a used ring of {@code size} entries (without the avail-event word). */
    public static long usedBytes(int size) {
        return vring_used.ring$offset() + size * vring_used.ring$layout().elementLayout().byteSize();
    }

    /** Writes descriptor {@code i}. */
    public void descriptor(int i, long addr, int len, int flags, int next) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("descriptor " + i + " of " + size);
        }
        MemorySegment d = vring_desc.asSlice(desc, i);
        vring_desc.addr(d, addr);
        vring_desc.len(d, len);
        vring_desc.flags(d, (short) flags);
        vring_desc.next(d, (short) next);
    }

    /**
     * Offers the chain starting at descriptor {@code head}: its entry in the available ring first,
     * then (after a release fence, so the device sees the descriptors before the index) the new
     * avail index.
     *
     * @return the avail index now published (mod 2^16)
     */
    public int publish(int head) {
        avail.set(ValueLayout.JAVA_SHORT, vring_avail.ring$offset() + (nextAvail % size) * AVAIL_RING_ENTRY, (short) head);
        nextAvail = (nextAvail + 1) & 0xFFFF;
        VarHandle.releaseFence();
        vring_avail.idx(avail, (short) nextAvail);
        return nextAvail;
    }

    /** Chains offered so far (mod 2^16): the vring base to give a device taking the ring over. */
    public int availIndex() {
        return nextAvail;
    }

    /** The device's used index (mod 2^16), read with acquire semantics: what it wrote before is visible. */
    public int usedIndex() {
        int idx = Short.toUnsignedInt(vring_used.idx(used));
        VarHandle.acquireFence();
        return idx;
    }

    /** True when the device has used every chain offered so far. */
    public boolean allUsed() {
        return usedIndex() == nextAvail;
    }
}
