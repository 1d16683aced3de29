package org.vdpactl.fake.bus;


import java.util.List;
import java.util.Map;
import org.vdpactl.fake.errno.KernelError;

/** A vDPA device on the fake bus, as the vdpa netlink family sees it. */
public interface VdpaDevice {
    String name();

    MgmtDevice mgmtDevice();

    /** Virtio device id: 1 net, 2 block. */
    int virtioId();

    int vendorId();

    /** Number of virtqueues (VDPA_ATTR_DEV_MAX_VQS). */
    int maxVqs();

    int maxVqSize();

    /** 1 when the device has no minimum. */
    int minVqSize();

    /** Current virtio status byte. */
    int status();

    /** Device feature set (the provisioned/offered features, VDPA_ATTR_DEV_FEATURES). */
    long deviceFeatures();

    /** Driver features negotiated so far (meaningful once FEATURES_OK is set). */
    long negotiatedFeatures();

    /** A copy of the whole config space as the device presents it now (little-endian fields). */
    byte[] configSpace();

    /** True when the device reports vendor statistics (vdpa_sim_net on 6.12+). */
    boolean hasVendorStats();

    /**
     * Vendor statistics of one queue, in the device's order, e.g. "rx packets" → 0.
     * Throws {@link KernelError} (vdpa_sim: EINVAL) for an index the device does not have.
     */
    List<Map.Entry<String, Long>> vendorStats(int queueIndex);

    /** Applies VDPA_CMD_DEV_ATTR_SET's MAC; throws {@link KernelError} as the driver would. */
    void setMacAddress(byte[] mac);

    /** True while /dev/vhost-vdpa-N of this device is open. */
    boolean isOpen();

    /** Char device minor (the N of /dev/vhost-vdpa-N). */
    int minor();
}
