package org.vdpactl.vhost;

/**
 * {@code struct virtio_net_config} (little-endian fields). A field is null when the config space is
 * too short to hold it; whether a present field is meaningful depends on the negotiated features
 * (MAC, STATUS, MQ, MTU, SPEED_DUPLEX, RSS/HASH_REPORT).
 *
 * @param length                         bytes decoded
 * @param mac                            "02:00:00:00:00:01"
 * @param status                         VIRTIO_NET_S_* bits (1 = LINK_UP, 2 = ANNOUNCE)
 * @param maxVirtqueuePairs              max_virtqueue_pairs
 * @param mtu                            mtu
 * @param speed                          Mbit/s; 0xFFFFFFFF = unknown
 * @param duplex                         0 half, 1 full, 0xFF unknown
 * @param rssMaxKeySize                  rss_max_key_size
 * @param rssMaxIndirectionTableLength   rss_max_indirection_table_length
 * @param supportedHashTypes             supported_hash_types
 */
public record NetConfig(int length, String mac, Integer status, Integer maxVirtqueuePairs, Integer mtu, Long speed,
        Integer duplex, Integer rssMaxKeySize, Integer rssMaxIndirectionTableLength, Long supportedHashTypes)
        implements DeviceConfig {

    /** LINK_UP in {@link #status()}. */
    public boolean linkUp() {
        return status != null && (status & 1) != 0;
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
