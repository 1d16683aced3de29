package org.vdpactl.vhost;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * Virtio device types (linux/virtio_ids.h) as answered by VHOST_VDPA_GET_DEVICE_ID.
 * {@link #nameOf(int)} also names ids this enum does not list.
 */
public enum VirtioDeviceId {
    NET(vhost_h.VIRTIO_ID_NET(), "net"),
    BLOCK(vhost_h.VIRTIO_ID_BLOCK(), "block"),
    CONSOLE(vhost_h.VIRTIO_ID_CONSOLE(), "console"),
    RNG(vhost_h.VIRTIO_ID_RNG(), "rng"),
    BALLOON(vhost_h.VIRTIO_ID_BALLOON(), "balloon"),
    SCSI(vhost_h.VIRTIO_ID_SCSI(), "scsi"),
    NINE_P(vhost_h.VIRTIO_ID_9P(), "9p"),
    GPU(vhost_h.VIRTIO_ID_GPU(), "gpu"),
    INPUT(vhost_h.VIRTIO_ID_INPUT(), "input"),
    VSOCK(vhost_h.VIRTIO_ID_VSOCK(), "vsock"),
    CRYPTO(vhost_h.VIRTIO_ID_CRYPTO(), "crypto"),
    IOMMU(vhost_h.VIRTIO_ID_IOMMU(), "iommu"),
    MEM(vhost_h.VIRTIO_ID_MEM(), "mem"),
    FS(vhost_h.VIRTIO_ID_FS(), "fs"),
    PMEM(vhost_h.VIRTIO_ID_PMEM(), "pmem");

    private final int id;
    private final String label;

    VirtioDeviceId(int id, String label) {
        this.id = id;
        this.label = label;
    }

    /** The numeric virtio id. */
    public int id() {
        return id;
    }

    /** Short lower-case name as iproute2 prints it ("net", "block"). */
    public String label() {
        return label;
    }

    /** The type with this id, or null when it is not one of the listed ones. */
    public static VirtioDeviceId of(int id) {
        for (VirtioDeviceId d : values()) {
            if (d.id == id) {
                return d;
            }
        }
        return null;
    }

    /** "net", "block", ... or "unknown(42)". */
    public static String nameOf(int id) {
        VirtioDeviceId d = of(id);
        return d != null ? d.label : "unknown(" + id + ")";
    }
}
