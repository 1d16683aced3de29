package org.vdpactl.abi;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * Every vhost backend feature bit ({@code VHOST_BACKEND_F_*} of linux/vhost_types.h), by its macro name,
 * with the bit number jextract evaluated from the uapi headers. The macros are bit numbers: the mask is
 * {@code 1L << bit()}. The client's {@code BackendFeature} and the fake's vhost-vdpa driver both read the bits
 * from here; the kernel profiles name them by the same macro names.
 */
public enum UapiBackendFeature {
    VHOST_BACKEND_F_IOTLB_MSG_V2(vhost_h.VHOST_BACKEND_F_IOTLB_MSG_V2()),
    VHOST_BACKEND_F_IOTLB_BATCH(vhost_h.VHOST_BACKEND_F_IOTLB_BATCH()),
    VHOST_BACKEND_F_IOTLB_ASID(vhost_h.VHOST_BACKEND_F_IOTLB_ASID()),
    VHOST_BACKEND_F_SUSPEND(vhost_h.VHOST_BACKEND_F_SUSPEND()),
    VHOST_BACKEND_F_RESUME(vhost_h.VHOST_BACKEND_F_RESUME()),
    VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK(vhost_h.VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK()),
    VHOST_BACKEND_F_DESC_ASID(vhost_h.VHOST_BACKEND_F_DESC_ASID()),
    VHOST_BACKEND_F_IOTLB_PERSIST(vhost_h.VHOST_BACKEND_F_IOTLB_PERSIST());

    private final int bit;

    UapiBackendFeature(int bit) {
        this.bit = bit;
    }

    /** The bit number (the macro's value). */
    public int bit() {
        return bit;
    }

    /** {@code 1L << bit()}. */
    public long mask() {
        return 1L << bit;
    }

    /** The feature with this bit number, or null. */
    public static UapiBackendFeature forBit(int bit) {
        for (UapiBackendFeature f : values()) {
            if (f.bit == bit) {
                return f;
            }
        }
        return null;
    }
}
