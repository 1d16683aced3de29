package org.vdpactl.fake.bus;

/** A management device of the fake vdpa bus (what VDPA_CMD_MGMTDEV_GET describes). */
public interface MgmtDevice {
    /** Bus name ("pci") or null for devices without a bus (vdpa_sim's "vdpasim_net"). */
    String busName();

    /** Device name ("0000:08:00.2", "vdpasim_net"). */
    String devName();

    /** iproute2's display name: "bus/dev" or just "dev". */
    default String displayName() {
        return busName() == null ? devName() : busName() + "/" + devName();
    }

    /** VDPA_ATTR_MGMTDEV_SUPPORTED_CLASSES: bit n set for virtio device id n. */
    long supportedClasses();

    /** VDPA_ATTR_DEV_MGMTDEV_MAX_VQS. */
    int maxSupportedVqs();

    /** VDPA_ATTR_DEV_SUPPORTED_FEATURES. */
    long supportedFeatures();

    /**
     * Bit mask of the vdpa netlink attribute numbers this mgmtdev accepts in DEV_NEW
     * (e.g. 1L << 10 for MACADDR); the kernel's "Some provided attributes are not supported: 0x…".
     */
    long provisionableAttributes();
}
