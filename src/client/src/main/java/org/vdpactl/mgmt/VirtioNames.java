package org.vdpactl.mgmt;

import static org.vdpactl.ffi.gen.vhost.vhost_h.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.vdpactl.vhost.VirtioDeviceId;
import org.vdpactl.vhost.VirtioFeatures;

/**
 * iproute2's rendering of virtio ids and feature bits, so that {@code vdpa}-compatible output reads
 * the same. The names themselves have one home, {@link VirtioFeatures} (the uapi macro names); this
 * class only knows which bits iproute2's tables (net_feature_strs, ext_feature_strs) name and how it
 * spells them (no VIRTIO_*_F_ prefix). Block feature bits, which iproute2 leaves unnamed, are named
 * too. Bits iproute2 does not name are {@code "bit_N"}.
 */
public final class VirtioNames {
    private static final int ID_NET = VirtioDeviceId.NET.id();
    private static final int ID_BLOCK = VirtioDeviceId.BLOCK.id();
    private static final int TRANSPORT_F_START = VIRTIO_TRANSPORT_F_START();
    private static final int TRANSPORT_F_END = VIRTIO_TRANSPORT_F_END();

    /** The device bits iproute2's net_feature_strs names. */
    private static final Set<Integer> NET = Set.of(
            VIRTIO_NET_F_CSUM(),
            VIRTIO_NET_F_GUEST_CSUM(),
            VIRTIO_NET_F_CTRL_GUEST_OFFLOADS(),
            VIRTIO_NET_F_MTU(),
            VIRTIO_NET_F_MAC(),
            VIRTIO_NET_F_GUEST_TSO4(),
            VIRTIO_NET_F_GUEST_TSO6(),
            VIRTIO_NET_F_GUEST_ECN(),
            VIRTIO_NET_F_GUEST_UFO(),
            VIRTIO_NET_F_HOST_TSO4(),
            VIRTIO_NET_F_HOST_TSO6(),
            VIRTIO_NET_F_HOST_ECN(),
            VIRTIO_NET_F_HOST_UFO(),
            VIRTIO_NET_F_MRG_RXBUF(),
            VIRTIO_NET_F_STATUS(),
            VIRTIO_NET_F_CTRL_VQ(),
            VIRTIO_NET_F_CTRL_RX(),
            VIRTIO_NET_F_CTRL_VLAN(),
            VIRTIO_NET_F_CTRL_RX_EXTRA(),
            VIRTIO_NET_F_GUEST_ANNOUNCE(),
            VIRTIO_NET_F_MQ(),
            VIRTIO_F_NOTIFY_ON_EMPTY(),
            VIRTIO_NET_F_CTRL_MAC_ADDR(),
            VIRTIO_F_ANY_LAYOUT(),
            VIRTIO_NET_F_RSC_EXT(),
            VIRTIO_NET_F_HASH_REPORT(),
            VIRTIO_NET_F_RSS(),
            VIRTIO_NET_F_STANDBY(),
            VIRTIO_NET_F_SPEED_DUPLEX());
    /** The block bits named here (iproute2 leaves them unnamed), with the legacy generic bits below the transport range. */
    private static final Set<Integer> BLK = Set.of(
            VIRTIO_BLK_F_SIZE_MAX(),
            VIRTIO_BLK_F_SEG_MAX(),
            VIRTIO_BLK_F_GEOMETRY(),
            VIRTIO_BLK_F_RO(),
            VIRTIO_BLK_F_BLK_SIZE(),
            VIRTIO_BLK_F_FLUSH(),
            VIRTIO_BLK_F_TOPOLOGY(),
            VIRTIO_BLK_F_CONFIG_WCE(),
            VIRTIO_BLK_F_MQ(),
            VIRTIO_BLK_F_DISCARD(),
            VIRTIO_BLK_F_WRITE_ZEROES(),
            VIRTIO_BLK_F_SECURE_ERASE(),
            VIRTIO_BLK_F_ZONED(),
            VIRTIO_F_NOTIFY_ON_EMPTY(),
            VIRTIO_F_ANY_LAYOUT());
    /** The transport bits iproute2's ext_feature_strs names. */
    private static final Set<Integer> TRANSPORT = Set.of(
            VIRTIO_RING_F_INDIRECT_DESC(),
            VIRTIO_RING_F_EVENT_IDX(),
            VIRTIO_F_VERSION_1(),
            VIRTIO_F_ACCESS_PLATFORM(),
            VIRTIO_F_RING_PACKED(),
            VIRTIO_F_IN_ORDER(),
            VIRTIO_F_ORDER_PLATFORM(),
            VIRTIO_F_SR_IOV(),
            VIRTIO_F_NOTIFICATION_DATA());

    private VirtioNames() {
    }

    /** iproute2's device type: "network", "block", else "{@code <unknown type>}". */
    public static String deviceTypeName(int deviceId) {
        if (deviceId == ID_NET) {
            return "network";
        }
        return deviceId == ID_BLOCK ? "block" : "<unknown type>";
    }

    /** iproute2's class name in "supported_classes": "net", "block", else "{@code < unknown class >}". */
    public static String className(int virtioId) {
        if (virtioId == ID_NET) {
            return "net";
        }
        return virtioId == ID_BLOCK ? "block" : "< unknown class >";
    }

    /** The name of every set bit, low to high; device bits are named for net and block devices. */
    public static List<String> featureNames(long features, int deviceId) {
        List<String> names = new ArrayList<>();
        Set<Integer> device = deviceId == ID_NET ? NET : deviceId == ID_BLOCK ? BLK : Set.of();
        for (int bit = 0; bit < 64; bit++) {
            if ((features & (1L << bit)) == 0) {
                continue;
            }
            boolean named = bit >= TRANSPORT_F_START && bit <= TRANSPORT_F_END ? TRANSPORT.contains(bit) : device.contains(bit);
            names.add(named ? shortName(VirtioFeatures.bitName(bit, deviceId)) : "bit_" + bit);
        }
        return names;
    }

    /** iproute2's spelling of a uapi name: without the VIRTIO_*_F_ prefix, ring bits as RING_*. */
    static String shortName(String uapiName) {
        for (String prefix : new String[] {"VIRTIO_NET_F_", "VIRTIO_BLK_F_", "VIRTIO_F_"}) {
            if (uapiName.startsWith(prefix)) {
                return uapiName.substring(prefix.length());
            }
        }
        if (uapiName.startsWith("VIRTIO_RING_F_")) {
            return "RING_" + uapiName.substring("VIRTIO_RING_F_".length());
        }
        throw new IllegalStateException("not a virtio feature name: " + uapiName);
    }
}
