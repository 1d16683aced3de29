package org.vdpactl.mgmt;

import java.util.ArrayList;
import java.util.List;

/**
 * A management device (VDPA_CMD_MGMTDEV_GET reply).
 *
 * @param busName           VDPA_ATTR_MGMTDEV_BUS_NAME ("pci"), null for bus-less devices such as vdpa_sim
 * @param devName           VDPA_ATTR_MGMTDEV_DEV_NAME ("vdpasim_net", "0000:08:00.2")
 * @param supportedClasses  bit n set for virtio device id n (0x2 = net)
 * @param maxSupportedVqs   VDPA_ATTR_DEV_MGMTDEV_MAX_VQS, null when the kernel does not report it
 * @param supportedFeatures VDPA_ATTR_DEV_SUPPORTED_FEATURES, null when the kernel does not report it
 */
public record MgmtDevInfo(String busName, String devName, long supportedClasses, Integer maxSupportedVqs, Long supportedFeatures) {

    /** iproute2's handle: "bus/dev", or just "dev" without a bus. */
    public String handle() {
        return busName == null ? devName : busName + "/" + devName;
    }

    /** The virtio device ids of the supported classes, ascending. */
    public List<Integer> classIds() {
        List<Integer> ids = new ArrayList<>();
        for (int i = 1; i < 64; i++) {
            if ((supportedClasses & (1L << i)) != 0) {
                ids.add(i);
            }
        }
        return ids;
    }

    public boolean supportsClass(int virtioId) {
        return virtioId >= 0 && virtioId < 64 && (supportedClasses & (1L << virtioId)) != 0;
    }
}
