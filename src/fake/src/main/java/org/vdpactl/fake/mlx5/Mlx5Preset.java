package org.vdpactl.fake.mlx5;

/**
 * A named kernel behaviour: parameters plus feature flags (docs/spec/mlx5-model.md §4.3).
 *
 * @param name     e.g. {@code mlx5-612}
 * @param kernel   the kernel versions it stands for
 * @param params   the numeric model
 * @param features what that kernel does differently
 */
public record Mlx5Preset(String name, String kernel, Mlx5Params params, Mlx5Features features) {

    public Mlx5Preset withParams(Mlx5Params p) {
        return new Mlx5Preset(name, kernel, p, features);
    }

    public Mlx5Preset withFeatures(String newName, Mlx5Features f) {
        return new Mlx5Preset(newName, kernel, params, f);
    }
}
