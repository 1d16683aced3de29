package org.vdpactl.vhost;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * {@code vhost_iotlb_msg.perm}: what the device may do with a mapping. The kernel does not validate
 * it; PA-mode devices pin pages writable iff WO is set.
 */
public enum IotlbPermission {
    /** Device reads only (e.g. TX buffers). */
    RO(vhost_h.VHOST_ACCESS_RO()),
    /** Device writes only. */
    WO(vhost_h.VHOST_ACCESS_WO()),
    /** Both (guest RAM). */
    RW(vhost_h.VHOST_ACCESS_RW());

    private final int code;

    IotlbPermission(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The permission with this code, or null (the kernel stores any byte). */
    public static IotlbPermission of(int code) {
        for (IotlbPermission p : values()) {
            if (p.code == code) {
                return p;
            }
        }
        return null;
    }
}
