package org.vdpactl.fake.mlx5;

import java.util.Set;
import org.vdpactl.fake.model.DriverModel;

/** The mlx5 latency-model presets (shared/spec/mlx5-model.md §4.3). */
public final class Mlx5Presets {
    private Mlx5Presets() {
    }

    /** Preset names in kernel order. */
    public static Set<String> names() {
        return new java.util.LinkedHashSet<>(java.util.List.of("mlx5-pre612", "mlx5-611", "mlx5-612"));
    }

    /** A fresh per-device model of {@code preset} for a device provisioned with {@code maxVqPairs}. */
    public static DriverModel create(String preset, int maxVqPairs) {
        if (!names().contains(preset)) {
            throw new IllegalArgumentException("unknown mlx5 preset '" + preset + "'; known: " + names());
        }
        return DriverModel.FREE;
    }
}
