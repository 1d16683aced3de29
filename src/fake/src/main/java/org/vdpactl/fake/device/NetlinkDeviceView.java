package org.vdpactl.fake.device;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.sys.Errno;

/**
 * A {@link FakeVdpaDevice} as the vdpa netlink family sees it (vdpa_dev_fill, vendor statistics,
 * DEV_ATTR_SET): the device's facts read under its mutex, and the driver's answers to the
 * management requests.
 */
public final class NetlinkDeviceView {
    private final FakeVdpaDevice dev;

    NetlinkDeviceView(FakeVdpaDevice dev) {
        this.dev = dev;
    }

    /** The device behind this view. */
    public FakeVdpaDevice device() {
        return dev;
    }

    public String name() {
        return dev.name();
    }

    public FakeMgmtDevice mgmtDevice() {
        return dev.mgmtDevice();
    }

    /** Virtio device id: 1 net, 2 block. */
    public int virtioId() {
        return dev.spec().virtioId();
    }

    public int vendorId() {
        return dev.spec().vendorId();
    }

    /** Number of virtqueues (VDPA_ATTR_DEV_MAX_VQS). */
    public int maxVqs() {
        return dev.nvqs();
    }

    public int maxVqSize() {
        return dev.spec().vqNumMax();
    }

    /** 1 when the device has no minimum. */
    public int minVqSize() {
        return dev.spec().vqNumMin();
    }

    /** Current virtio status byte. */
    public int status() {
        return dev.status();
    }

    /** Device feature set (the provisioned/offered features, VDPA_ATTR_DEV_FEATURES). */
    public long deviceFeatures() {
        return dev.deviceFeatures();
    }

    /** Driver features negotiated so far (meaningful once FEATURES_OK is set). */
    public long negotiatedFeatures() {
        return dev.negotiatedFeatures();
    }

    /** A copy of the whole config space as the device presents it now (little-endian fields). */
    public byte[] configSpace() {
        return dev.configSpace();
    }

    /** True when the device reports vendor statistics (vdpa_sim_net on 6.12+). */
    public boolean hasVendorStats() {
        return dev.spec().vendorStats() != null;
    }

    /**
     * Vendor statistics of one queue, in the device's order, e.g. "rx packets" → 0.
     * Throws {@link KernelError} (vdpa_sim: EINVAL) for an index the device does not have.
     */
    public List<Map.Entry<String, Long>> vendorStats(int queueIndex) {
        DeviceProfile.VendorStats vs = dev.spec().vendorStats();
        if (vs == null) {
            throw KernelError.of(Errno.EOPNOTSUPP, dev.name() + " has no vendor statistics");
        }
        dev.mutex().lock();
        try {
            List<Map.Entry<String, Long>> byDriver = dev.ops().vendorVqStats(vs, queueIndex);
            if (byDriver != null) {
                return byDriver; // the driver's own queue rules (mlx5_vdpa_get_vendor_vq_stats)
            }
        } finally {
            dev.mutex().unlock();
        }
        int nvqs = dev.nvqs();
        List<String> names;
        if (vs.perQueue() != null) {
            names = queueIndex >= 0 && queueIndex < vs.perQueue().size() && queueIndex < nvqs
                    ? vs.perQueue().get(queueIndex) : null;
        } else {
            names = queueIndex >= 0 && queueIndex < nvqs ? vs.everyQueue() : null;
        }
        if (names == null) {
            throw KernelError.of(DeviceProfile.errno(vs.invalidQueueErrno()), dev.name() + ": no queue " + queueIndex);
        }
        List<Map.Entry<String, Long>> out = new ArrayList<>();
        names.forEach(n -> out.add(Map.entry(n, dev.datapathStat(n))));
        return out;
    }

    /** Applies VDPA_CMD_DEV_ATTR_SET's MAC; throws {@link KernelError} as the driver would. */
    public void setMacAddress(byte[] mac) {
        dev.setMacAddress(mac);
    }

    /** True while /dev/vhost-vdpa-N of this device is open. */
    public boolean isOpen() {
        return dev.node().isOpen();
    }

    /** Char device minor (the N of /dev/vhost-vdpa-N). */
    public int minor() {
        return dev.minor();
    }

    @Override
    public String toString() {
        return dev.toString();
    }
}
