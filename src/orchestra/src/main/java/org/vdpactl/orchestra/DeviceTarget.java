package org.vdpactl.orchestra;

import java.util.Objects;

/**
 * A vhost-vdpa device to rehearse on.
 *
 * @param name the vdpa device name ("mlx5-0", "vdpa0"): the label of its spans and report row
 * @param path its character device ("/dev/vhost-vdpa-0")
 */
public record DeviceTarget(String name, String path) {
    public DeviceTarget {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(path, "path");
    }

    @Override
    public String toString() {
        return name + " (" + path + ")";
    }
}
