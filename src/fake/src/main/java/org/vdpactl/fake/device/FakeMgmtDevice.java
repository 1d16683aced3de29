package org.vdpactl.fake.device;

import java.util.Objects;

import org.vdpactl.fake.bus.MgmtDevice;

/**
 * A management device of the fake bus: a profile instantiated under a bus/device name, with the
 * driver-model preset its devices use.
 */
public final class FakeMgmtDevice implements MgmtDevice {
    private final DeviceProfile profile;
    private final String busName;
    private final String devName;
    private final String preset;
    private final String namedPreset;
    private final String presetReason;
    /** The PCI function behind the management device (what the administrator sets outside vdpa). */
    private final PortFunction function = new PortFunction();

    public FakeMgmtDevice(DeviceProfile profile, String busName, String devName, String preset) {
        this(profile, busName, devName, preset, "the " + profile.name() + " profile's default");
    }

    /**
     * @param preset        the preset the inventory names, or null for the profile's default
     * @param defaultReason why the profile's default applies when none is named (e.g. "the 6.1 kernel
     *                      profile's mlx5_vdpa")
     */
    public FakeMgmtDevice(DeviceProfile profile, String busName, String devName, String preset, String defaultReason) {
        this.profile = Objects.requireNonNull(profile);
        this.busName = busName;
        this.devName = Objects.requireNonNull(devName, "mgmtdev name");
        this.namedPreset = preset;
        this.preset = preset != null ? preset : profile.mgmtdev().defaultPreset();
        this.presetReason = preset != null ? "named by the inventory" : defaultReason;
    }

    /** The function's MAC, MTU and link (meaningful for a hardware parent such as mlx5; vdpa_sim reads none). */
    public PortFunction function() {
        return function;
    }

    public DeviceProfile profile() {
        return profile;
    }

    /** The driver model preset ("mlx5-612"), or null for models without presets. */
    public String preset() {
        return preset;
    }

    /** The preset the inventory named, or null when the profile's default applies (what a saved state keeps). */
    public String namedPreset() {
        return namedPreset;
    }

    /** Why {@link #preset()} is this one: "named by the inventory" or the default's reason. */
    public String presetReason() {
        return presetReason;
    }

    @Override
    public String busName() {
        return busName;
    }

    @Override
    public String devName() {
        return devName;
    }

    @Override
    public long supportedClasses() {
        return profile.mgmtdev().classMask();
    }

    @Override
    public int maxSupportedVqs() {
        return profile.mgmtdev().maxSupportedVqCount();
    }

    @Override
    public long supportedFeatures() {
        return profile.mgmtdev().supportedFeatureMask();
    }

    @Override
    public long provisionableAttributes() {
        return profile.mgmtdev().provisionableMask();
    }

    @Override
    public String toString() {
        return displayName();
    }
}
