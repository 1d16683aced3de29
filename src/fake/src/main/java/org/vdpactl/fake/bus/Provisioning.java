package org.vdpactl.fake.bus;

/**
 * The attributes of a VDPA_CMD_DEV_NEW request after parsing; null fields were not given.
 *
 * @param mac        6 bytes
 * @param mtu        MTU (u16)
 * @param maxVqPairs max_vqp (u16)
 * @param features   device_features (u64)
 */
public record Provisioning(byte[] mac, Integer mtu, Integer maxVqPairs, Long features) {
    public static final Provisioning NONE = new Provisioning(null, null, null, null);
}
