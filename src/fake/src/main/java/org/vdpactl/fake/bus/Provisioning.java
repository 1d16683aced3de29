package org.vdpactl.fake.bus;

import org.vdpactl.ffi.gen.vhost.vhost_h;

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

    /**
     * The VDPA_ATTR_* attributes (bit n for attribute n) a DEV_NEW carrying this provisioning has: what
     * {@code vdpa_nl_cmd_dev_add_set_doit} checks against the mgmtdev's config_attr_mask
     * ({@link MgmtDevice#provisionableAttributes()}), on a request and on a restored state alike.
     */
    public long attributeMask() {
        long mask = 0;
        if (mac != null) {
            mask |= 1L << vhost_h.VDPA_ATTR_DEV_NET_CFG_MACADDR();
        }
        if (mtu != null) {
            mask |= 1L << vhost_h.VDPA_ATTR_DEV_NET_CFG_MTU();
        }
        if (maxVqPairs != null) {
            mask |= 1L << vhost_h.VDPA_ATTR_DEV_NET_CFG_MAX_VQP();
        }
        if (features != null) {
            mask |= 1L << vhost_h.VDPA_ATTR_DEV_FEATURES();
        }
        return mask;
    }
}
