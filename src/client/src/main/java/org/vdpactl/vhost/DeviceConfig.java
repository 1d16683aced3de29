package org.vdpactl.vhost;

/** A decoded virtio config space. */
public sealed interface DeviceConfig permits NetConfig, BlkConfig, RawConfig {
    /** The config space length that was decoded; null when the fields came from netlink attributes. */
    Integer length();
}
