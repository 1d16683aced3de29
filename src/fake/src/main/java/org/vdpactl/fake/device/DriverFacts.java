package org.vdpactl.fake.device;

import org.vdpactl.fake.bus.Provisioning;

/**
 * One kernel version's facts of a vdpa parent driver (for mlx5_vnet: the "rules" of
 * kernels/mlx5-VERSION.json): what makes the driver's {@link VdpaConfigOps} for a new device. A profile
 * without facts is vdpa_sim's ({@link VdpaSimOps}).
 */
public interface DriverFacts {

    /** The driver's ops for a new device. */
    VdpaConfigOps newOps(FakeVdpaDevice device);

    /** The optional vdpa_config_ops members the driver of {@link #newOps} sets (its ops class declares them). */
    DeviceProfile.Ops configOps();

    /**
     * The device features dev_add offers, as the driver ties them to the provisioned MAC.
     *
     * @param features     the features before the MAC rule
     * @param hasMac       a non-zero MAC was provisioned
     * @param provisioned  the features were provisioned
     * @param mgmtName     the management device, for messages
     */
    long devAddFeatures(long features, boolean hasMac, boolean provisioned, String mgmtName);

    /**
     * The MAC dev_add puts in the config space: the provisioned one, else what the driver reads from the PCI
     * function (null: none read, the config MAC stays zero).
     */
    byte[] devAddMac(Provisioning provisioning, byte[] functionMac);
}
