package org.vdpactl.mgmt;

/**
 * A vDPA device (VDPA_CMD_DEV_GET reply).
 *
 * @param name        VDPA_ATTR_DEV_NAME
 * @param mgmtBusName VDPA_ATTR_MGMTDEV_BUS_NAME of its management device, or null
 * @param mgmtDevName VDPA_ATTR_MGMTDEV_DEV_NAME of its management device
 * @param deviceId    virtio device id (1 net, 2 block)
 * @param vendorId    VDPA_ATTR_DEV_VENDOR_ID, or null
 * @param maxVqs      VDPA_ATTR_DEV_MAX_VQS (number of virtqueues), or null
 * @param maxVqSize   VDPA_ATTR_DEV_MAX_VQ_SIZE, or null
 * @param minVqSize   VDPA_ATTR_DEV_MIN_VQ_SIZE (1 when the device has no minimum), or null on old kernels
 */
public record VdpaDevInfo(String name, String mgmtBusName, String mgmtDevName, int deviceId, Integer vendorId,
                          Integer maxVqs, Integer maxVqSize, Integer minVqSize) {

    /** The management device handle, "bus/dev" or "dev". */
    public String mgmtHandle() {
        return mgmtBusName == null ? mgmtDevName : mgmtBusName + "/" + mgmtDevName;
    }

    /** iproute2's type name: "network", "block" or "{@code <unknown type>}". */
    public String typeName() {
        return VirtioNames.deviceTypeName(deviceId);
    }
}
