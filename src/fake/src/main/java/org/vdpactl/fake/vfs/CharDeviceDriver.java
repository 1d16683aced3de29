package org.vdpactl.fake.vfs;

import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.device.FakeVdpaDevice;
import org.vdpactl.fake.errno.KernelError;

/**
 * The driver behind the char node of each vdpa device, /dev/vhost-vdpa-N: what the kernel's
 * alloc_chrdev_region and cdev_device_add register for vhost_vdpa (drivers/vhost/vdpa.c), so that
 * open(2) of the node reaches the driver's open. {@link FakeKernel} resolves the path, checks the
 * node's permissions and then asks this driver for the file.
 *
 * <p>The fake's root names no driver: the one driver is built by the {@link CharDeviceModule} that
 * the class path lists, so that org.vdpactl.fake.vhost builds on the root without the root
 * importing it back.
 */
public interface CharDeviceDriver {

    /** The major number of the driver's region (shown in /proc/devices and stat(2)). */
    int major();

    /**
     * The file behind a new open of {@code device}'s node, after the VFS permission check.
     *
     * @throws KernelError as the driver's open refuses (EBUSY while another open holds the node)
     */
    FakeFile open(FakeVdpaDevice device);
}
