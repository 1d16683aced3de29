package org.vdpactl.vhost;

import java.util.Objects;

/**
 * One piece of a device's memory layout: {@code size} bytes of host memory at {@code hostAddress}
 * visible to the device at {@code iova}.
 *
 * @param iova        device (I/O virtual) address
 * @param size        bytes (unsigned; 0 is rejected by the kernel)
 * @param hostAddress host virtual address (the IOTLB {@code uaddr})
 * @param perm        device access
 */
public record IotlbRegion(long iova, long size, long hostAddress, IotlbPermission perm) {
    public IotlbRegion {
        Objects.requireNonNull(perm, "perm");
    }

    @Override
    public String toString() {
        return "iova 0x" + Long.toHexString(iova) + " size 0x" + Long.toHexString(size) + " host 0x"
                + Long.toHexString(hostAddress) + " " + perm;
    }
}
