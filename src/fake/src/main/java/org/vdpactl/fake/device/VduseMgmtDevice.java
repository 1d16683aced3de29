package org.vdpactl.fake.device;

import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.bus.MgmtDevice;
import org.vdpactl.sys.Errno;

/**
 * The "vduse" management device a kernel built with CONFIG_VDPA_USER registers at boot
 * (drivers/vdpa/vdpa_user/vduse_dev.c, vduse_mgmtdev_init): no bus, id table {block, net} (classes
 * 0x6), no max_supported_vqs, no supported_features and no config_attr_mask, so DEV_NEW with any
 * provisioning attribute is EOPNOTSUPP in the vdpa core. Its dev_add only attaches a device that a
 * VDUSE userspace daemon created through /dev/vduse/control; the fake models no such daemon, so
 * every dev_add finds no device of that name and fails like the kernel's: EINVAL without extack
 * (docs/spec/verified-netlink.md rows 20, 27 and 29).
 */
public final class VduseMgmtDevice implements MgmtDevice {
    /** The mgmtdev's device name. */
    public static final String NAME = "vduse";
    private final long classes;

    /**
     * A vduse mgmtdev whose id table has the virtio ids of {@code classes} (bit n = virtio id n);
     * which ids a kernel version has is profile data ({@code KernelProfile#vduseClasses}).
     */
    public VduseMgmtDevice(long classes) {
        this.classes = classes;
    }

    @Override
    public String busName() {
        return null;
    }

    @Override
    public String devName() {
        return NAME;
    }

    @Override
    public long supportedClasses() {
        return classes;
    }

    @Override
    public int maxSupportedVqs() {
        return 0;
    }

    @Override
    public long supportedFeatures() {
        return 0;
    }

    @Override
    public long provisionableAttributes() {
        return 0;
    }

    /** vdpa_dev_add of vduse: vduse_find_dev(name) finds nothing (no VDUSE device exists in the fake). */
    KernelError noSuchVduseDevice(String name) {
        return KernelError.of(Errno.EINVAL, "no VDUSE device named " + name + " (the fake has no /dev/vduse/control)");
    }

    @Override
    public String toString() {
        return NAME;
    }
}
