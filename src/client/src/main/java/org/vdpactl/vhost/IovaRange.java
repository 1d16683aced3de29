package org.vdpactl.vhost;

/**
 * The IOVA window a device accepts (VHOST_VDPA_GET_IOVA_RANGE), both ends inclusive and unsigned.
 *
 * @param first lowest IOVA
 * @param last  highest IOVA (0xffffffffffffffff = the whole 64-bit space)
 */
public record IovaRange(long first, long last) {
    public static final IovaRange FULL = new IovaRange(0, -1L);

    /**
     * True when {@code [iova, iova + size - 1]} lies inside the range, with the kernel's rules:
     * size 0 and a range wrapping past 2^64 are never contained.
     */
    public boolean contains(long iova, long size) {
        if (size == 0) {
            return false;
        }
        if (Long.compareUnsigned(iova, -size) > 0) { // iova > 2^64 - size: overflow
            return false;
        }
        long end = iova + size - 1;
        return Long.compareUnsigned(iova, first) >= 0 && Long.compareUnsigned(end, last) <= 0;
    }

    /** Number of addresses minus one (the size would not fit 64 bits for the full range). */
    public long lastOffset() {
        return last - first;
    }

    @Override
    public String toString() {
        return "[0x" + Long.toHexString(first) + ", 0x" + Long.toHexString(last) + "]";
    }
}
