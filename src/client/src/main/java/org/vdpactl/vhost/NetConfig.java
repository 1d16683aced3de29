package org.vdpactl.vhost;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * A virtio-net device's configuration, {@code struct virtio_net_config}. One record for both ways
 * vdpactl learns it: {@link VirtioConfigDecoder#net} decodes the config-space bytes
 * (VHOST_VDPA_GET_CONFIG, little-endian fields), and the management layer fills the fields that
 * VDPA_CMD_DEV_CONFIG_GET sends as attributes ({@link #ofNetlink}). A field is null when the source
 * did not carry it: config space too short to hold it, or an attribute the kernel left out (it sends
 * each only with the matching feature bit). Whether a decoded field is meaningful depends on the
 * device's features: {@link #validFor} keeps only the valid ones.
 *
 * @param length                         config-space bytes decoded; null when the fields came from netlink attributes
 * @param mac                            "02:00:00:00:00:01"
 * @param status                         VIRTIO_NET_S_* bits (1 = LINK_UP, 2 = ANNOUNCE)
 * @param maxVirtqueuePairs              max_virtqueue_pairs (VDPA_ATTR_DEV_NET_CFG_MAX_VQP)
 * @param mtu                            mtu
 * @param speed                          Mbit/s; 0xFFFFFFFF = unknown
 * @param duplex                         0 half, 1 full, 0xFF unknown
 * @param rssMaxKeySize                  rss_max_key_size
 * @param rssMaxIndirectionTableLength   rss_max_indirection_table_length
 * @param supportedHashTypes             supported_hash_types
 */
public record NetConfig(Integer length, String mac, Integer status, Integer maxVirtqueuePairs, Integer mtu, Long speed,
        Integer duplex, Integer rssMaxKeySize, Integer rssMaxIndirectionTableLength, Long supportedHashTypes)
        implements DeviceConfig {

    /**
     * The fields VDPA_CMD_DEV_CONFIG_GET carries for a net device; the rest stay null.
     *
     * @param mac               VDPA_ATTR_DEV_NET_CFG_MACADDR (feature MAC)
     * @param mtu               VDPA_ATTR_DEV_NET_CFG_MTU (feature MTU)
     * @param status            VDPA_ATTR_DEV_NET_STATUS, a u16 on the wire (feature STATUS)
     * @param maxVirtqueuePairs VDPA_ATTR_DEV_NET_CFG_MAX_VQP (feature MQ or RSS)
     */
    public static NetConfig ofNetlink(String mac, Integer mtu, Integer status, Integer maxVirtqueuePairs) {
        return new NetConfig(null, mac, status, maxVirtqueuePairs, mtu, null, null, null, null, null);
    }

    /**
     * This config with only the fields the device's features make valid; the others null. The rules are
     * Linux 6.12's vdpa_dev_net_config_fill (what {@code vdpa dev config show} prints): MAC with F_MAC, status with
     * F_STATUS, max_virtqueue_pairs with F_MQ or F_RSS, MTU with F_MTU, all tested on the device (offered) features;
     * and for the fields the kernel does not send, the virtio spec's (1.2, 5.1.4): speed and duplex with
     * F_SPEED_DUPLEX, rss_max_key_size and supported_hash_types with F_RSS or F_HASH_REPORT,
     * rss_max_indirection_table_length with F_RSS. Without its bit a field holds whatever the device left
     * there (zeros on vdpa_sim: "0 Mbit/s, half duplex"), which is not a fact about the device.
     *
     * @param deviceFeatures VHOST_GET_FEATURES (the device's offered features)
     */
    public NetConfig validFor(long deviceFeatures) {
        boolean rss = has(deviceFeatures, vhost_h.VIRTIO_NET_F_RSS());
        boolean hash = rss || has(deviceFeatures, vhost_h.VIRTIO_NET_F_HASH_REPORT());
        boolean speedDuplex = has(deviceFeatures, vhost_h.VIRTIO_NET_F_SPEED_DUPLEX());
        return new NetConfig(length,
                has(deviceFeatures, vhost_h.VIRTIO_NET_F_MAC()) ? mac : null,
                has(deviceFeatures, vhost_h.VIRTIO_NET_F_STATUS()) ? status : null,
                rss || has(deviceFeatures, vhost_h.VIRTIO_NET_F_MQ()) ? maxVirtqueuePairs : null,
                has(deviceFeatures, vhost_h.VIRTIO_NET_F_MTU()) ? mtu : null,
                speedDuplex ? speed : null,
                speedDuplex ? duplex : null,
                hash ? rssMaxKeySize : null,
                rss ? rssMaxIndirectionTableLength : null,
                hash ? supportedHashTypes : null);
    }

    private static boolean has(long features, int bit) {
        return (features & (1L << bit)) != 0;
    }

    /** VIRTIO_NET_S_LINK_UP of the status, or null without status. */
    public Boolean linkUp() {
        return status == null ? null : (status & 1) != 0;
    }

    /** VIRTIO_NET_S_ANNOUNCE of the status, or null without status. */
    public Boolean announce() {
        return status == null ? null : (status & 2) != 0;
    }

    /** "half", "full", "unknown" or "invalid(N)"; null when absent. */
    public String duplexName() {
        if (duplex == null) {
            return null;
        }
        return switch (duplex) {
            case 0 -> "half";
            case 1 -> "full";
            case 0xFF -> "unknown";
            default -> "invalid(" + duplex + ")";
        };
    }
}
