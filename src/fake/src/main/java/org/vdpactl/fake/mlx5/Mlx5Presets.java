package org.vdpactl.fake.mlx5;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.vdpactl.fake.model.DriverModel;

/** The mlx5 latency-model presets (docs/spec/mlx5-model.md §4.3): same parameters, different flags. */
public final class Mlx5Presets {
    private static final Map<String, Mlx5Preset> PRESETS = new LinkedHashMap<>();

    static {
        add(new Mlx5Preset("mlx5-61", "v6.1", Mlx5Params.DEFAULT, Mlx5Features.V61));
        add(new Mlx5Preset("mlx5-pre612", "≤ v6.10", Mlx5Params.DEFAULT, Mlx5Features.PRE_612));
        add(new Mlx5Preset("mlx5-611", "v6.11", Mlx5Params.DEFAULT, Mlx5Features.V611));
        add(new Mlx5Preset("mlx5-612", "v6.12 and later", Mlx5Params.DEFAULT, Mlx5Features.V612));
    }

    private Mlx5Presets() {
    }

    private static void add(Mlx5Preset preset) {
        PRESETS.put(preset.name(), preset);
    }

    /** Preset names, oldest kernel first. */
    public static Set<String> names() {
        return Collections.unmodifiableSet(PRESETS.keySet());
    }

    /** The preset called {@code name}. */
    public static Mlx5Preset preset(String name) {
        Mlx5Preset preset = PRESETS.get(name);
        if (preset == null) {
            throw new IllegalArgumentException("unknown mlx5 preset '" + name + "'; known: " + names());
        }
        return preset;
    }

    /**
     * A fresh per-device model with default capabilities and default provisioned features;
     * {@code maxVqPairs} 0 means "not provisioned" (1 pair).
     */
    public static DriverModel create(String preset, int maxVqPairs) {
        return device(preset, maxVqPairs);
    }

    /** Same as {@link #create} with the concrete type (fault hooks, inspection). */
    public static Mlx5Device device(String preset, int maxVqPairs) {
        return device(preset(preset), maxVqPairs);
    }

    /**
     * What {@link Mlx5Device}'s constructor refuses of a pair count, here so that a caller can check it now and make
     * the device later without loading the model's classes (DriverModelFactory: a restored device's model is made
     * on its first use, start-up).
     */
    public static void checkMaxVqPairs(int maxVqPairs) {
        if (maxVqPairs < 0) {
            throw new IllegalArgumentException("maxVqPairs must be ≥ 0, got " + maxVqPairs);
        }
    }

    /** Same as {@link #device(String, int)} with the preset already resolved. */
    public static Mlx5Device device(Mlx5Preset preset, int maxVqPairs) {
        return new Mlx5Device(preset, maxVqPairs, Mlx5Capabilities.DEFAULT, Mlx5NetFeatures.DEFAULT_DEVICE);
    }
}
