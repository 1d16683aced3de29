package org.vdpactl.mgmt;

/**
 * iproute2's management device handle: "BUS/NAME" or, for devices without a bus (vdpa_sim), "NAME".
 *
 * @param bus the bus name, or null
 * @param dev the device name
 */
public record MgmtHandle(String bus, String dev) {

    public static MgmtHandle parse(String handle) {
        int slash = handle.indexOf('/');
        if (slash >= 0 && handle.indexOf('/', slash + 1) >= 0) {
            throw new IllegalArgumentException("management device \"" + handle
                    + "\" has more than one '/': expected BUS/NAME or NAME");
        }
        return slash < 0 ? new MgmtHandle(null, handle) : new MgmtHandle(handle.substring(0, slash), handle.substring(slash + 1));
    }

    @Override
    public String toString() {
        return bus == null ? dev : bus + "/" + dev;
    }
}
