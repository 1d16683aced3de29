package org.vdpactl.fake.model;

/** One IOTLB entry of an address space, as set_map hands the whole table to a driver. */
public record MapEntry(long iova, long size, long uaddr, int perm) {
    /** Inclusive last IOVA. */
    public long last() {
        return iova + size - 1;
    }
}
