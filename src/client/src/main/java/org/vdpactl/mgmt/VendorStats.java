package org.vdpactl.mgmt;

import java.util.List;
import org.vdpactl.vhost.VirtioFeatures;

/**
 * Vendor statistics of one queue (VDPA_CMD_DEV_VSTATS_GET reply).
 *
 * @param name               device name
 * @param deviceId           virtio device id
 * @param negotiatedFeatures driver features
 * @param maxVqPairs         VDPA_ATTR_DEV_NET_CFG_MAX_VQP when MQ/RSS was negotiated, else null
 * @param queueIndex         the queue
 * @param stats              the device's name/value pairs in its order ("rx packets" → 0)
 */
public record VendorStats(String name, int deviceId, Long negotiatedFeatures, Integer maxVqPairs, int queueIndex, List<Stat> stats) {

    /** One vendor counter; {@code value} is a u64 (use {@link Long#toUnsignedString}). */
    public record Stat(String name, long value) {
    }

    public VendorStats {
        stats = List.copyOf(stats);
    }

    /**
     * "rx", "tx" or "control_vq" for a net device: the control queue is queue 2·pairs when
     * CTRL_VQ was negotiated; a missing MAX_VQP means one pair (iproute2 assumes zero there and
     * calls queue 0 the control queue).
     */
    public String queueType() {
        long features = negotiatedFeatures == null ? 0 : negotiatedFeatures;
        int pairs = maxVqPairs == null ? 1 : maxVqPairs;
        boolean ctrl = (features & (1L << VirtioFeatures.NET_F_CTRL_VQ)) != 0 && queueIndex == 2 * pairs;
        return ctrl ? "control_vq" : (queueIndex & 1) != 0 ? "tx" : "rx";
    }
}
