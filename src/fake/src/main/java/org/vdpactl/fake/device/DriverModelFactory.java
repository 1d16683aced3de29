package org.vdpactl.fake.device;

import org.vdpactl.fake.mlx5.Mlx5Device;
import org.vdpactl.fake.mlx5.Mlx5Presets;
import org.vdpactl.fake.model.DriverModel;
import org.vdpactl.time.Clock;

/** Creates the {@link DriverModel} behind each new fake device. */
@FunctionalInterface
public interface DriverModelFactory {

    /**
     * @param profile  the device's profile
     * @param preset   the mgmtdev's model preset (e.g. "mlx5-612"), or null
     * @param vqPairs  the device's queue pairs
     * @param clock    the kernel's clock (models with timers, like the v6.12 MR garbage collector, read it)
     */
    DriverModel create(DeviceProfile profile, String preset, int vqPairs, Clock clock);

    /** vdpa_sim profiles cost nothing; mlx5 profiles get the mlx5 latency model of their preset. */
    static DriverModelFactory standard() {
        return (profile, preset, pairs, clock) -> "mlx5".equals(profile.mgmtdev().driverModel())
                ? mlx5(preset, pairs, clock) : DriverModel.FREE;
    }

    private static DriverModel mlx5(String preset, int pairs, Clock clock) {
        Mlx5Device d = Mlx5Presets.device(preset, pairs);
        d.useClock(clock::nanoTime);
        return d;
    }
}
