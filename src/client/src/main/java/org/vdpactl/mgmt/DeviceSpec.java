package org.vdpactl.mgmt;

/**
 * What VDPA_CMD_DEV_NEW creates; null optional fields are not sent.
 *
 * @param name           the new device's name
 * @param mgmtBusName    the management device's bus, or null (vdpa_sim has none)
 * @param mgmtDevName    the management device's name
 * @param mac            VDPA_ATTR_DEV_NET_CFG_MACADDR
 * @param mtu            VDPA_ATTR_DEV_NET_CFG_MTU
 * @param maxVqPairs     VDPA_ATTR_DEV_NET_CFG_MAX_VQP
 * @param deviceFeatures VDPA_ATTR_DEV_FEATURES
 */
public record DeviceSpec(String name, String mgmtBusName, String mgmtDevName, MacAddress mac, Integer mtu,
                         Integer maxVqPairs, Long deviceFeatures) {

    /** A spec for {@code name} on the management device {@code mgmtHandle} ("bus/dev" or "dev"). */
    public static DeviceSpec of(String name, String mgmtHandle) {
        MgmtHandle h = MgmtHandle.parse(mgmtHandle);
        return new DeviceSpec(name, h.bus(), h.dev(), null, null, null, null);
    }

    public DeviceSpec withMac(MacAddress m) {
        return new DeviceSpec(name, mgmtBusName, mgmtDevName, m, mtu, maxVqPairs, deviceFeatures);
    }

    public DeviceSpec withMtu(Integer m) {
        return new DeviceSpec(name, mgmtBusName, mgmtDevName, mac, m, maxVqPairs, deviceFeatures);
    }

    public DeviceSpec withMaxVqPairs(Integer p) {
        return new DeviceSpec(name, mgmtBusName, mgmtDevName, mac, mtu, p, deviceFeatures);
    }

    public DeviceSpec withDeviceFeatures(Long f) {
        return new DeviceSpec(name, mgmtBusName, mgmtDevName, mac, mtu, maxVqPairs, f);
    }
}
