package org.vdpactl.fake.bus;

import java.util.List;
import java.util.Optional;

/**
 * The fake kernel's vdpa bus: what drivers/vdpa/vdpa.c keeps (management devices, devices by
 * global name, creation order) and the two mutating operations netlink drives.
 */
public interface VdpaBus {
    /** Registered management devices in registration order. */
    List<MgmtDevice> managementDevices();

    /** Looks a management device up by (bus, dev) with the kernel's rule: a null bus matches only bus-less mgmtdevs. */
    Optional<MgmtDevice> managementDevice(String busName, String devName);

    /** Devices in creation order. */
    List<VdpaDevice> devices();

    Optional<VdpaDevice> device(String name);

    /**
     * The mgmtdev's dev_add after the netlink layer's own checks: driver checks first (vdpa_sim:
     * features not a subset → EINVAL), then a duplicate name → EEXIST; creates the char device.
     */
    VdpaDevice addDevice(MgmtDevice mgmtDevice, String name, Provisioning provisioning);

    /** dev_del: waits while the device's char node is open (as the kernel does), then removes it. */
    void deleteDevice(VdpaDevice device) throws InterruptedException;
}
