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

    public FakeMgmtDevice(DeviceProfile profile, String busName, String devName, String preset) {
        this.profile = Objects.requireNonNull(profile);
        this.busName = busName;
        this.devName = Objects.requireNonNull(devName, "mgmtdev name");
        this.preset = preset != null ? preset : profile.mgmtdev().defaultPreset();
    }

    public DeviceProfile profile() {
        return profile;
    }

    /** The driver model preset ("mlx5-612"), or null for models without presets. */
    public String preset() {
        return preset;
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
