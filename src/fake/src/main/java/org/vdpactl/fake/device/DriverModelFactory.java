package org.vdpactl.fake.device;

import java.util.function.Supplier;
import org.vdpactl.fake.mlx5.Mlx5Device;
import org.vdpactl.fake.mlx5.Mlx5Preset;
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

    /**
     * The model of a new device as the device asks for it on first use. By default it is made now; the standard
     * factory checks the preset now (a bad one fails the dev add or the state's load as before) and makes the
     * model on first use, so a command that only lists devices never builds a latency model (start-up).
     */
    default Supplier<DriverModel> prepare(DeviceProfile profile, String preset, int vqPairs, Clock clock) {
        DriverModel made = create(profile, preset, vqPairs, clock);
        return () -> made;
    }

    /** vdpa_sim profiles cost nothing; mlx5 profiles get the mlx5 latency model of their preset. */
    static DriverModelFactory standard() {
        return new DriverModelFactory() {
            @Override
            public DriverModel create(DeviceProfile profile, String preset, int vqPairs, Clock clock) {
                return isMlx5(profile) ? mlx5(preset, vqPairs, clock) : DriverModel.FREE;
            }

            @Override
            public Supplier<DriverModel> prepare(DeviceProfile profile, String preset, int vqPairs, Clock clock) {
                if (!isMlx5(profile)) {
                    return () -> DriverModel.FREE;
                }
                // validated now, made later: whatever the model's constructor would refuse (an unknown preset, a
                // negative pair count) fails the dev add or the state's load as before, not the device's first op
                Mlx5Preset resolved = Mlx5Presets.preset(preset);
                Mlx5Presets.checkMaxVqPairs(vqPairs);
                return () -> mlx5(resolved, vqPairs, clock);
            }
        };
    }

    private static boolean isMlx5(DeviceProfile profile) {
        return "mlx5".equals(profile.mgmtdev().driverModel());
    }

    private static DriverModel mlx5(String preset, int pairs, Clock clock) {
        return mlx5(Mlx5Presets.preset(preset), pairs, clock);
    }

    private static DriverModel mlx5(Mlx5Preset preset, int pairs, Clock clock) {
        Mlx5Device d = Mlx5Presets.device(preset, pairs);
        d.useClock(clock::nanoTime);
        return d;
    }
}
