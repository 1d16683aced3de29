package org.vdpactl.fake.device;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.bus.VdpaDevice;
import org.vdpactl.sys.Errno;

/**
 * A {@link FakeVdpaDevice} as the vdpa netlink family sees it (vdpa_dev_fill, vendor statistics,
 * DEV_ATTR_SET): the device's facts read under its mutex, and the driver's answers to the
 * management requests.
 */
public final class NetlinkDeviceView implements VdpaDevice {
    private final FakeVdpaDevice dev;

    NetlinkDeviceView(FakeVdpaDevice dev) {
        this.dev = dev;
    }

    /** The device behind this view. */
    public FakeVdpaDevice device() {
        return dev;
    }

    @Override
    public String name() {
        return dev.name();
    }

    @Override
    public FakeMgmtDevice mgmtDevice() {
        return dev.mgmtDevice();
    }

    @Override
    public int virtioId() {
        return dev.spec().virtioId();
    }

    @Override
    public int vendorId() {
        return dev.spec().vendorId();
    }

    @Override
    public int maxVqs() {
        return dev.nvqs();
    }

    @Override
    public int maxVqSize() {
        return dev.spec().vqNumMax();
    }

    @Override
    public int minVqSize() {
        return dev.spec().vqNumMin();
    }

    @Override
    public int status() {
        return dev.status();
    }

    @Override
    public long deviceFeatures() {
        return dev.deviceFeatures();
    }

    @Override
    public long negotiatedFeatures() {
        return dev.negotiatedFeatures();
    }

    @Override
    public byte[] configSpace() {
        return dev.configSpace();
    }

    @Override
    public boolean hasVendorStats() {
        return dev.spec().vendorStats() != null;
    }

    @Override
    public List<Map.Entry<String, Long>> vendorStats(int queueIndex) {
        DeviceProfile.VendorStats vs = dev.spec().vendorStats();
        if (vs == null) {
            throw KernelError.of(Errno.EOPNOTSUPP, dev.name() + " has no vendor statistics");
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

    @Override
    public void setMacAddress(byte[] mac) {
        dev.setMacAddress(mac);
    }

    @Override
    public boolean isOpen() {
        return dev.node().isOpen();
    }

    @Override
    public int minor() {
        return dev.minor();
    }

    @Override
    public String toString() {
        return dev.toString();
    }
}
