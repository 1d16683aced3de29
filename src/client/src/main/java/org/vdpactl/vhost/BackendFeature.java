package org.vdpactl.vhost;

import org.vdpactl.abi.UapiBackendFeature;

/**
 * One {@code VHOST_BACKEND_F_*} bit (linux/vhost_types.h) the client knows, each the ABI's
 * {@link UapiBackendFeature} (the bit number is the kernel's, read there). The mask is {@code 1L << bit()}.
 */
public enum BackendFeature {
    /** V2 IOTLB messages ({@code vhost_msg_v2}, with an {@code asid} field) may be used. */
    IOTLB_MSG_V2(UapiBackendFeature.VHOST_BACKEND_F_IOTLB_MSG_V2),
    /** BATCH_BEGIN / BATCH_END hints: set_map drivers rebuild their table once per batch. */
    IOTLB_BATCH(UapiBackendFeature.VHOST_BACKEND_F_IOTLB_BATCH),
    /** The {@code asid} field of V2 messages is honoured (otherwise every message goes to AS 0). */
    IOTLB_ASID(UapiBackendFeature.VHOST_BACKEND_F_IOTLB_ASID),
    /** The device has a suspend op (VHOST_VDPA_SUSPEND does something). */
    SUSPEND(UapiBackendFeature.VHOST_BACKEND_F_SUSPEND,
            "the parent driver has no suspend op; such a device can only be stopped by a reset"),
    /** The device has a resume op (VHOST_VDPA_RESUME does something). */
    RESUME(UapiBackendFeature.VHOST_BACKEND_F_RESUME,
            "the parent driver has no resume op; reset and replay the vring state instead"),
    /** Virtqueues may be enabled after DRIVER_OK. */
    ENABLE_AFTER_DRIVER_OK(UapiBackendFeature.VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK),
    /** Descriptor tables may live in their own group/ASID; requires IOTLB_ASID in the same ack. */
    DESC_ASID(UapiBackendFeature.VHOST_BACKEND_F_DESC_ASID,
            "its driver has no get_vq_desc_group op, so there are no separate descriptor groups"),
    /** IOTLB maps survive a device reset (no CLEAN_MAP). */
    IOTLB_PERSIST(UapiBackendFeature.VHOST_BACKEND_F_IOTLB_PERSIST);

    private final UapiBackendFeature uapi;
    private final String absent;

    BackendFeature(UapiBackendFeature uapi) {
        this(uapi, null);
    }

    /**
     * {@code absent}: what a device that does not offer the bit lacks and what to do instead, for a bit that
     * gates an ioctl ({@code UapiIoctl.gate()}): the EOPNOTSUPP hint of that ioctl is made from it.
     */
    BackendFeature(UapiBackendFeature uapi, String absent) {
        this.uapi = uapi;
        this.absent = absent;
    }

    /** The kernel's bit this is. */
    public UapiBackendFeature uapi() {
        return uapi;
    }

    /** The bit number. */
    public int bit() {
        return uapi.bit();
    }

    /** {@code 1L << bit()}. */
    public long mask() {
        return uapi.mask();
    }

    /** The kernel's macro name, e.g. {@code VHOST_BACKEND_F_IOTLB_MSG_V2}. */
    public String kernelName() {
        return uapi.name();
    }

    /**
     * What a device without this bit lacks, for the hint of an ioctl it gates, e.g. "the parent driver has no
     * suspend op; …"; a generic sentence for a bit that declares none.
     */
    String absent() {
        return absent != null ? absent : "it lacks the capability this bit advertises";
    }

    /** The client's feature for the kernel's bit (every {@link UapiBackendFeature} has one). */
    static BackendFeature of(UapiBackendFeature uapi) {
        for (BackendFeature f : values()) {
            if (f.uapi == uapi) {
                return f;
            }
        }
        throw new IllegalArgumentException("no BackendFeature for " + uapi);
    }

    /** The feature with this bit number, or null. */
    public static BackendFeature ofBit(int bit) {
        for (BackendFeature f : values()) {
            if (f.bit() == bit) {
                return f;
            }
        }
        return null;
    }
}
