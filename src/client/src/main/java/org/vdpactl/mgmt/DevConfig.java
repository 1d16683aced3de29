package org.vdpactl.mgmt;

import org.vdpactl.vhost.BlkConfig;
import org.vdpactl.vhost.NetConfig;

/**
 * A device's configuration (VDPA_CMD_DEV_CONFIG_GET reply).
 *
 * @param name               VDPA_ATTR_DEV_NAME
 * @param deviceId           virtio device id
 * @param negotiatedFeatures VDPA_ATTR_DEV_NEGOTIATED_FEATURES: only once the driver set FEATURES_OK, else null
 * @param deviceFeatures     VDPA_ATTR_DEV_FEATURES: the device's (provisioned) feature set, or null
 * @param net                the net fields for a net device, else null
 * @param blk                the block fields for a block device, else null
 * @param readOnly           VDPA_ATTR_DEV_BLK_READ_ONLY of a block device, else null: the kernel derives
 *                           it from VIRTIO_BLK_F_RO, it is no config-space field
 * @param flush              VDPA_ATTR_DEV_BLK_FLUSH of a block device, else null (from VIRTIO_BLK_F_FLUSH)
 */
public record DevConfig(String name, int deviceId, Long negotiatedFeatures, Long deviceFeatures, NetConfig net, BlkConfig blk,
                        Boolean readOnly, Boolean flush) {
}
