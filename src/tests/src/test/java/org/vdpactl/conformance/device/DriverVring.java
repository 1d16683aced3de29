package org.vdpactl.conformance.device;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

/**
 * The driver's side of one split virtqueue laid out in guest memory, for datapath cases: a
 * descriptor table, avail ring and used ring of {@link #SIZE} entries at consecutive pages of a
 * memory region whose offset 0 is IOVA {@code iovaBase}. Buffers are posted as single-descriptor
 * chains (descriptor i for the i-th buffer).
 */
final class DriverVring {
    static final int SIZE = 16;
    static final long PAGE = 4096;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final short F_WRITE = 2;

    private final MemorySegment memory;
    private final long iovaBase;
    private final long offset;
    private int posted;

    /**
     * @param memory   the guest memory as the driver sees it (IOVA iovaBase at its offset 0)
     * @param iovaBase the IOVA of {@code memory}'s first byte
     * @param offset   where in {@code memory} the ring's three pages start
     */
    DriverVring(MemorySegment memory, long iovaBase, long offset) {
        this.memory = memory;
        this.iovaBase = iovaBase;
        this.offset = offset;
    }

    long descIova() {
        return iovaBase + offset;
    }

    long availIova() {
        return iovaBase + offset + PAGE;
    }

    long usedIova() {
        return iovaBase + offset + 2 * PAGE;
    }

    /** Posts a buffer at {@code bufferOffset} of the memory: device-readable ({@code writable} false) or device-writable. */
    void post(long bufferOffset, int length, boolean writable) {
        int d = posted % SIZE;
        long desc = offset + d * 16L;
        memory.set(U64, desc, iovaBase + bufferOffset);
        memory.set(U32, desc + 8, length);
        memory.set(U16, desc + 12, writable ? F_WRITE : 0);
        memory.set(U16, desc + 14, (short) 0);
        memory.set(U16, offset + PAGE + 4 + 2L * d, (short) d);
        posted++;
        memory.set(U16, offset + PAGE + 2, (short) posted);
    }

    /** Posts a two-descriptor chain: a device-readable buffer, then a device-writable one (a control command and its ack). */
    void postChain(long readOffset, int readLength, long writeOffset, int writeLength) {
        int d = posted * 2 % SIZE;
        long first = offset + d * 16L;
        memory.set(U64, first, iovaBase + readOffset);
        memory.set(U32, first + 8, readLength);
        memory.set(U16, first + 12, (short) 1); // VRING_DESC_F_NEXT
        memory.set(U16, first + 14, (short) (d + 1));
        memory.set(U64, first + 16, iovaBase + writeOffset);
        memory.set(U32, first + 24, writeLength);
        memory.set(U16, first + 28, F_WRITE);
        memory.set(U16, first + 30, (short) 0);
        memory.set(U16, offset + PAGE + 4 + 2L * (posted % SIZE), (short) d);
        posted++;
        memory.set(U16, offset + PAGE + 2, (short) posted);
    }

    int usedIdx() {
        return Short.toUnsignedInt(memory.get(U16, offset + 2 * PAGE + 2));
    }

    /** The used element {id, len} at slot {@code i}. */
    long[] used(int i) {
        long e = offset + 2 * PAGE + 4 + 8L * i;
        return new long[] {Integer.toUnsignedLong(memory.get(U32, e)), Integer.toUnsignedLong(memory.get(U32, e + 4))};
    }

    /**
     * Waits until the device used {@code count} buffers (vdpa_sim runs its queues on a kernel worker,
     * the fake at the kick); returns the used index it saw last.
     */
    int awaitUsed(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (usedIdx() < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return usedIdx();
    }
}
