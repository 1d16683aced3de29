package org.vdpactl.fake.device;

import org.slf4j.LoggerFactory;
import org.vdpactl.fake.model.DriverModel;

/** Creates the {@link DriverModel} behind each new fake device. */
@FunctionalInterface
public interface DriverModelFactory {

    /**
     * @param profile  the device's profile
     * @param preset   the mgmtdev's model preset (e.g. "mlx5-612"), or null
     * @param vqPairs  the device's queue pairs
     */
    DriverModel create(DeviceProfile profile, String preset, int vqPairs);

    /** vdpa_sim profiles cost nothing; mlx5 profiles get the mlx5 latency model of the preset. */
    static DriverModelFactory standard() {
        return (profile, preset, pairs) -> "mlx5".equals(profile.mgmtdev().driverModel())
                ? mlx5(preset, pairs) : DriverModel.FREE;
    }

    /** The mlx5 latency model (org.vdpactl.fake.mlx5); free until that package provides its presets. */
    private static DriverModel mlx5(String preset, int pairs) {
        LoggerFactory.getLogger(DriverModelFactory.class)
                .debug("mlx5 model {} for {} pairs not available yet: using a free model", preset, pairs);
        return DriverModel.FREE;
    }
}
