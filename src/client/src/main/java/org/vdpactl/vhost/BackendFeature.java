package org.vdpactl.vhost;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * One {@code VHOST_BACKEND_F_*} bit (linux/vhost_types.h). The kernel macros are bit numbers; the
 * mask is {@code 1L << bit()}.
 */
public enum BackendFeature {
    /** V2 IOTLB messages ({@code vhost_msg_v2}, with an {@code asid} field) may be used. */
    IOTLB_MSG_V2(vhost_h.VHOST_BACKEND_F_IOTLB_MSG_V2()),
    /** BATCH_BEGIN / BATCH_END hints: set_map drivers rebuild their table once per batch. */
    IOTLB_BATCH(vhost_h.VHOST_BACKEND_F_IOTLB_BATCH()),
    /** The {@code asid} field of V2 messages is honoured (otherwise every message goes to AS 0). */
    IOTLB_ASID(vhost_h.VHOST_BACKEND_F_IOTLB_ASID()),
    /** The device has a suspend op (VHOST_VDPA_SUSPEND does something). */
    SUSPEND(vhost_h.VHOST_BACKEND_F_SUSPEND()),
    /** The device has a resume op (VHOST_VDPA_RESUME does something). */
    RESUME(vhost_h.VHOST_BACKEND_F_RESUME()),
    /** Virtqueues may be enabled after DRIVER_OK. */
    ENABLE_AFTER_DRIVER_OK(vhost_h.VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK()),
    /** Descriptor tables may live in their own group/ASID; requires IOTLB_ASID in the same ack. */
    DESC_ASID(vhost_h.VHOST_BACKEND_F_DESC_ASID()),
    /** IOTLB maps survive a device reset (no CLEAN_MAP). */
    IOTLB_PERSIST(vhost_h.VHOST_BACKEND_F_IOTLB_PERSIST());

    private final int bit;

    BackendFeature(int bit) {
        this.bit = bit;
    }

    /** The bit number. */
    public int bit() {
        return bit;
    }

    /** {@code 1L << bit()}. */
    public long mask() {
        return 1L << bit;
    }

    /** The kernel's macro name, e.g. {@code VHOST_BACKEND_F_IOTLB_MSG_V2}. */
    public String kernelName() {
        return "VHOST_BACKEND_F_" + name();
    }

    /** The feature with this bit number, or null. */
    public static BackendFeature ofBit(int bit) {
        for (BackendFeature f : values()) {
            if (f.bit == bit) {
                return f;
            }
        }
        return null;
    }
}
