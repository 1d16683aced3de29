package org.vdpactl.mgmt;

/**
 * The virtio-net part of VDPA_CMD_DEV_CONFIG_GET; each field is null when the kernel left the
 * attribute out (it sends each only when the device offers the matching feature bit).
 *
 * @param mac        VDPA_ATTR_DEV_NET_CFG_MACADDR (feature MAC)
 * @param mtu        VDPA_ATTR_DEV_NET_CFG_MTU (feature MTU)
 * @param status     VDPA_ATTR_DEV_NET_STATUS, a u16 on the wire (feature STATUS)
 * @param maxVqPairs VDPA_ATTR_DEV_NET_CFG_MAX_VQP (feature MQ or RSS)
 */
public record NetConfig(MacAddress mac, Integer mtu, Integer status, Integer maxVqPairs) {
    /** VIRTIO_NET_S_LINK_UP of the status, or null without status. */
    public Boolean linkUp() {
        return status == null ? null : (status & 1) != 0;
    }

    /** VIRTIO_NET_S_ANNOUNCE of the status, or null without status. */
    public Boolean announce() {
        return status == null ? null : (status & 2) != 0;
    }
}
