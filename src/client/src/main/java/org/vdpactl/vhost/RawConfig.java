package org.vdpactl.vhost;

import java.util.HexFormat;

/**
 * The config space of a device type vdpactl does not decode, as hex.
 *
 * @param deviceId virtio device id
 * @param hex      the bytes, lower-case hex without separators
 */
public record RawConfig(int deviceId, String hex) implements DeviceConfig {
    public static RawConfig of(int deviceId, byte[] bytes) {
        return new RawConfig(deviceId, HexFormat.of().formatHex(bytes));
    }

    @Override
    public Integer length() {
        return hex.length() / 2;
    }
}
