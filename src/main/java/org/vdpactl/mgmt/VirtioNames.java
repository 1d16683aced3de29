package org.vdpactl.mgmt;

import static org.vdpactl.ffi.gen.vhost.vhost_h.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Display names for virtio ids and feature bits, following iproute2's {@code vdpa} tables
 * (net_feature_strs, ext_feature_strs) so that output reads the same. Block feature bits, which
 * iproute2 leaves unnamed, are named after their VIRTIO_BLK_F_* constants. Unnamed bits are
 * {@code "bit_N"}.
 */
public final class VirtioNames {
    public static final int ID_NET = VIRTIO_ID_NET();
    public static final int ID_BLOCK = VIRTIO_ID_BLOCK();
    public static final int NET_F_CTRL_VQ = VIRTIO_NET_F_CTRL_VQ();
    public static final int NET_F_MQ = VIRTIO_NET_F_MQ();
    public static final int NET_F_RSS = VIRTIO_NET_F_RSS();
    public static final int TRANSPORT_F_START = VIRTIO_TRANSPORT_F_START();
    public static final int TRANSPORT_F_END = VIRTIO_TRANSPORT_F_END();

    private static final Map<Integer, String> NET = new HashMap<>();
    private static final Map<Integer, String> BLK = new HashMap<>();
    private static final Map<Integer, String> TRANSPORT = new HashMap<>();

    static {
        NET.put(VIRTIO_NET_F_CSUM(), "CSUM");
        NET.put(VIRTIO_NET_F_GUEST_CSUM(), "GUEST_CSUM");
        NET.put(VIRTIO_NET_F_CTRL_GUEST_OFFLOADS(), "CTRL_GUEST_OFFLOADS");
        NET.put(VIRTIO_NET_F_MTU(), "MTU");
        NET.put(VIRTIO_NET_F_MAC(), "MAC");
        NET.put(VIRTIO_NET_F_GUEST_TSO4(), "GUEST_TSO4");
        NET.put(VIRTIO_NET_F_GUEST_TSO6(), "GUEST_TSO6");
        NET.put(VIRTIO_NET_F_GUEST_ECN(), "GUEST_ECN");
        NET.put(VIRTIO_NET_F_GUEST_UFO(), "GUEST_UFO");
        NET.put(VIRTIO_NET_F_HOST_TSO4(), "HOST_TSO4");
        NET.put(VIRTIO_NET_F_HOST_TSO6(), "HOST_TSO6");
        NET.put(VIRTIO_NET_F_HOST_ECN(), "HOST_ECN");
        NET.put(VIRTIO_NET_F_HOST_UFO(), "HOST_UFO");
        NET.put(VIRTIO_NET_F_MRG_RXBUF(), "MRG_RXBUF");
        NET.put(VIRTIO_NET_F_STATUS(), "STATUS");
        NET.put(VIRTIO_NET_F_CTRL_VQ(), "CTRL_VQ");
        NET.put(VIRTIO_NET_F_CTRL_RX(), "CTRL_RX");
        NET.put(VIRTIO_NET_F_CTRL_VLAN(), "CTRL_VLAN");
        NET.put(VIRTIO_NET_F_CTRL_RX_EXTRA(), "CTRL_RX_EXTRA");
        NET.put(VIRTIO_NET_F_GUEST_ANNOUNCE(), "GUEST_ANNOUNCE");
        NET.put(VIRTIO_NET_F_MQ(), "MQ");
        NET.put(VIRTIO_F_NOTIFY_ON_EMPTY(), "NOTIFY_ON_EMPTY");
        NET.put(VIRTIO_NET_F_CTRL_MAC_ADDR(), "CTRL_MAC_ADDR");
        NET.put(VIRTIO_F_ANY_LAYOUT(), "ANY_LAYOUT");
        NET.put(VIRTIO_NET_F_RSC_EXT(), "RSC_EXT");
        NET.put(VIRTIO_NET_F_HASH_REPORT(), "HASH_REPORT");
        NET.put(VIRTIO_NET_F_RSS(), "RSS");
        NET.put(VIRTIO_NET_F_STANDBY(), "STANDBY");
        NET.put(VIRTIO_NET_F_SPEED_DUPLEX(), "SPEED_DUPLEX");

        BLK.put(VIRTIO_BLK_F_SIZE_MAX(), "SIZE_MAX");
        BLK.put(VIRTIO_BLK_F_SEG_MAX(), "SEG_MAX");
        BLK.put(VIRTIO_BLK_F_GEOMETRY(), "GEOMETRY");
        BLK.put(VIRTIO_BLK_F_RO(), "RO");
        BLK.put(VIRTIO_BLK_F_BLK_SIZE(), "BLK_SIZE");
        BLK.put(VIRTIO_BLK_F_FLUSH(), "FLUSH");
        BLK.put(VIRTIO_BLK_F_TOPOLOGY(), "TOPOLOGY");
        BLK.put(VIRTIO_BLK_F_CONFIG_WCE(), "CONFIG_WCE");
        BLK.put(VIRTIO_BLK_F_MQ(), "MQ");
        BLK.put(VIRTIO_BLK_F_DISCARD(), "DISCARD");
        BLK.put(VIRTIO_BLK_F_WRITE_ZEROES(), "WRITE_ZEROES");
        BLK.put(VIRTIO_BLK_F_SECURE_ERASE(), "SECURE_ERASE");
        BLK.put(VIRTIO_BLK_F_ZONED(), "ZONED");
        // the legacy generic bits below the transport range, which iproute2 lists in its net table only
        BLK.put(VIRTIO_F_NOTIFY_ON_EMPTY(), "NOTIFY_ON_EMPTY");
        BLK.put(VIRTIO_F_ANY_LAYOUT(), "ANY_LAYOUT");

        TRANSPORT.put(VIRTIO_RING_F_INDIRECT_DESC(), "RING_INDIRECT_DESC");
        TRANSPORT.put(VIRTIO_RING_F_EVENT_IDX(), "RING_EVENT_IDX");
        TRANSPORT.put(VIRTIO_F_VERSION_1(), "VERSION_1");
        TRANSPORT.put(VIRTIO_F_ACCESS_PLATFORM(), "ACCESS_PLATFORM");
        TRANSPORT.put(VIRTIO_F_RING_PACKED(), "RING_PACKED");
        TRANSPORT.put(VIRTIO_F_IN_ORDER(), "IN_ORDER");
        TRANSPORT.put(VIRTIO_F_ORDER_PLATFORM(), "ORDER_PLATFORM");
        TRANSPORT.put(VIRTIO_F_SR_IOV(), "SR_IOV");
        TRANSPORT.put(VIRTIO_F_NOTIFICATION_DATA(), "NOTIFICATION_DATA");
    }

    private VirtioNames() {
    }

    /** iproute2's device type: "network", "block", else "<unknown type>". */
    public static String deviceTypeName(int deviceId) {
        if (deviceId == ID_NET) {
            return "network";
        }
        return deviceId == ID_BLOCK ? "block" : "<unknown type>";
    }

    /** iproute2's class name in "supported_classes": "net", "block", else "< unknown class >". */
    public static String className(int virtioId) {
        if (virtioId == ID_NET) {
            return "net";
        }
        return virtioId == ID_BLOCK ? "block" : "< unknown class >";
    }

    /** The name of every set bit, low to high; device bits are named for net and block devices. */
    public static List<String> featureNames(long features, int deviceId) {
        List<String> names = new ArrayList<>();
        Map<Integer, String> device = deviceId == ID_NET ? NET : deviceId == ID_BLOCK ? BLK : Map.of();
        for (int bit = 0; bit < 64; bit++) {
            if ((features & (1L << bit)) == 0) {
                continue;
            }
            String n = bit >= TRANSPORT_F_START && bit <= TRANSPORT_F_END ? TRANSPORT.get(bit) : device.get(bit);
            names.add(n != null ? n : "bit_" + bit);
        }
        return names;
    }
}
