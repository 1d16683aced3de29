package org.vdpactl.vhost;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * A 64-bit virtio feature word (VHOST_GET/SET_FEATURES) with names per device type: transport bits
 * ({@code VIRTIO_F_*}, {@code VIRTIO_RING_F_*}) for every type, {@code VIRTIO_NET_F_*} for net,
 * {@code VIRTIO_BLK_F_*} for block; bits nobody names print as "bit N".
 *
 * @param bits     the raw feature word
 * @param deviceId the virtio device id the names are taken for (0 = transport names only)
 */
public record VirtioFeatures(long bits, int deviceId) {
    /** Bit numbers the client acts on (not only names). */
    public static final int F_RING_PACKED = vhost_h.VIRTIO_F_RING_PACKED();
    public static final int RING_F_EVENT_IDX = vhost_h.VIRTIO_RING_F_EVENT_IDX();
    public static final int NET_F_CTRL_VQ = vhost_h.VIRTIO_NET_F_CTRL_VQ();
    public static final int NET_F_MQ = vhost_h.VIRTIO_NET_F_MQ();
    public static final int NET_F_RSS = vhost_h.VIRTIO_NET_F_RSS();

    private static final Map<Integer, String> TRANSPORT = new HashMap<>();
    private static final Map<Integer, String> NET = new HashMap<>();
    private static final Map<Integer, String> BLOCK = new HashMap<>();

    static {
        TRANSPORT.put(vhost_h.VIRTIO_F_NOTIFY_ON_EMPTY(), "VIRTIO_F_NOTIFY_ON_EMPTY");
        TRANSPORT.put(vhost_h.VIRTIO_F_ANY_LAYOUT(), "VIRTIO_F_ANY_LAYOUT");
        TRANSPORT.put(vhost_h.VIRTIO_RING_F_INDIRECT_DESC(), "VIRTIO_RING_F_INDIRECT_DESC");
        TRANSPORT.put(vhost_h.VIRTIO_RING_F_EVENT_IDX(), "VIRTIO_RING_F_EVENT_IDX");
        TRANSPORT.put(vhost_h.VIRTIO_F_VERSION_1(), "VIRTIO_F_VERSION_1");
        TRANSPORT.put(vhost_h.VIRTIO_F_ACCESS_PLATFORM(), "VIRTIO_F_ACCESS_PLATFORM");
        TRANSPORT.put(vhost_h.VIRTIO_F_RING_PACKED(), "VIRTIO_F_RING_PACKED");
        TRANSPORT.put(vhost_h.VIRTIO_F_IN_ORDER(), "VIRTIO_F_IN_ORDER");
        TRANSPORT.put(vhost_h.VIRTIO_F_ORDER_PLATFORM(), "VIRTIO_F_ORDER_PLATFORM");
        TRANSPORT.put(vhost_h.VIRTIO_F_SR_IOV(), "VIRTIO_F_SR_IOV");
        TRANSPORT.put(vhost_h.VIRTIO_F_NOTIFICATION_DATA(), "VIRTIO_F_NOTIFICATION_DATA");
        TRANSPORT.put(vhost_h.VIRTIO_F_NOTIF_CONFIG_DATA(), "VIRTIO_F_NOTIF_CONFIG_DATA");
        TRANSPORT.put(vhost_h.VIRTIO_F_RING_RESET(), "VIRTIO_F_RING_RESET");
        TRANSPORT.put(vhost_h.VIRTIO_F_ADMIN_VQ(), "VIRTIO_F_ADMIN_VQ");

        NET.put(vhost_h.VIRTIO_NET_F_CSUM(), "VIRTIO_NET_F_CSUM");
        NET.put(vhost_h.VIRTIO_NET_F_GUEST_CSUM(), "VIRTIO_NET_F_GUEST_CSUM");
        NET.put(vhost_h.VIRTIO_NET_F_CTRL_GUEST_OFFLOADS(), "VIRTIO_NET_F_CTRL_GUEST_OFFLOADS");
        NET.put(vhost_h.VIRTIO_NET_F_MTU(), "VIRTIO_NET_F_MTU");
        NET.put(vhost_h.VIRTIO_NET_F_MAC(), "VIRTIO_NET_F_MAC");
        NET.put(vhost_h.VIRTIO_NET_F_GSO(), "VIRTIO_NET_F_GSO");
        NET.put(vhost_h.VIRTIO_NET_F_GUEST_TSO4(), "VIRTIO_NET_F_GUEST_TSO4");
        NET.put(vhost_h.VIRTIO_NET_F_GUEST_TSO6(), "VIRTIO_NET_F_GUEST_TSO6");
        NET.put(vhost_h.VIRTIO_NET_F_GUEST_ECN(), "VIRTIO_NET_F_GUEST_ECN");
        NET.put(vhost_h.VIRTIO_NET_F_GUEST_UFO(), "VIRTIO_NET_F_GUEST_UFO");
        NET.put(vhost_h.VIRTIO_NET_F_HOST_TSO4(), "VIRTIO_NET_F_HOST_TSO4");
        NET.put(vhost_h.VIRTIO_NET_F_HOST_TSO6(), "VIRTIO_NET_F_HOST_TSO6");
        NET.put(vhost_h.VIRTIO_NET_F_HOST_ECN(), "VIRTIO_NET_F_HOST_ECN");
        NET.put(vhost_h.VIRTIO_NET_F_HOST_UFO(), "VIRTIO_NET_F_HOST_UFO");
        NET.put(vhost_h.VIRTIO_NET_F_MRG_RXBUF(), "VIRTIO_NET_F_MRG_RXBUF");
        NET.put(vhost_h.VIRTIO_NET_F_STATUS(), "VIRTIO_NET_F_STATUS");
        NET.put(vhost_h.VIRTIO_NET_F_CTRL_VQ(), "VIRTIO_NET_F_CTRL_VQ");
        NET.put(vhost_h.VIRTIO_NET_F_CTRL_RX(), "VIRTIO_NET_F_CTRL_RX");
        NET.put(vhost_h.VIRTIO_NET_F_CTRL_VLAN(), "VIRTIO_NET_F_CTRL_VLAN");
        NET.put(vhost_h.VIRTIO_NET_F_CTRL_RX_EXTRA(), "VIRTIO_NET_F_CTRL_RX_EXTRA");
        NET.put(vhost_h.VIRTIO_NET_F_GUEST_ANNOUNCE(), "VIRTIO_NET_F_GUEST_ANNOUNCE");
        NET.put(vhost_h.VIRTIO_NET_F_MQ(), "VIRTIO_NET_F_MQ");
        NET.put(vhost_h.VIRTIO_NET_F_CTRL_MAC_ADDR(), "VIRTIO_NET_F_CTRL_MAC_ADDR");
        NET.put(vhost_h.VIRTIO_NET_F_GUEST_UDP_TUNNEL_GSO_MAPPED(), "VIRTIO_NET_F_GUEST_UDP_TUNNEL_GSO_MAPPED");
        NET.put(vhost_h.VIRTIO_NET_F_GUEST_UDP_TUNNEL_GSO_CSUM_MAPPED(), "VIRTIO_NET_F_GUEST_UDP_TUNNEL_GSO_CSUM_MAPPED");
        NET.put(vhost_h.VIRTIO_NET_F_DEVICE_STATS(), "VIRTIO_NET_F_DEVICE_STATS");
        NET.put(vhost_h.VIRTIO_NET_F_VQ_NOTF_COAL(), "VIRTIO_NET_F_VQ_NOTF_COAL");
        NET.put(vhost_h.VIRTIO_NET_F_NOTF_COAL(), "VIRTIO_NET_F_NOTF_COAL");
        NET.put(vhost_h.VIRTIO_NET_F_GUEST_USO4(), "VIRTIO_NET_F_GUEST_USO4");
        NET.put(vhost_h.VIRTIO_NET_F_GUEST_USO6(), "VIRTIO_NET_F_GUEST_USO6");
        NET.put(vhost_h.VIRTIO_NET_F_HOST_USO(), "VIRTIO_NET_F_HOST_USO");
        NET.put(vhost_h.VIRTIO_NET_F_HASH_REPORT(), "VIRTIO_NET_F_HASH_REPORT");
        NET.put(vhost_h.VIRTIO_NET_F_GUEST_HDRLEN(), "VIRTIO_NET_F_GUEST_HDRLEN");
        NET.put(vhost_h.VIRTIO_NET_F_RSS(), "VIRTIO_NET_F_RSS");
        NET.put(vhost_h.VIRTIO_NET_F_RSC_EXT(), "VIRTIO_NET_F_RSC_EXT");
        NET.put(vhost_h.VIRTIO_NET_F_STANDBY(), "VIRTIO_NET_F_STANDBY");
        NET.put(vhost_h.VIRTIO_NET_F_SPEED_DUPLEX(), "VIRTIO_NET_F_SPEED_DUPLEX");

        BLOCK.put(vhost_h.VIRTIO_BLK_F_BARRIER(), "VIRTIO_BLK_F_BARRIER");
        BLOCK.put(vhost_h.VIRTIO_BLK_F_SIZE_MAX(), "VIRTIO_BLK_F_SIZE_MAX");
        BLOCK.put(vhost_h.VIRTIO_BLK_F_SEG_MAX(), "VIRTIO_BLK_F_SEG_MAX");
        BLOCK.put(vhost_h.VIRTIO_BLK_F_GEOMETRY(), "VIRTIO_BLK_F_GEOMETRY");
        BLOCK.put(vhost_h.VIRTIO_BLK_F_RO(), "VIRTIO_BLK_F_RO");
        BLOCK.put(vhost_h.VIRTIO_BLK_F_BLK_SIZE(), "VIRTIO_BLK_F_BLK_SIZE");
        BLOCK.put(vhost_h.VIRTIO_BLK_F_SCSI(), "VIRTIO_BLK_F_SCSI");
        BLOCK.put(vhost_h.VIRTIO_BLK_F_FLUSH(), "VIRTIO_BLK_F_FLUSH"); // VIRTIO_BLK_F_WCE is its legacy alias
        BLOCK.put(vhost_h.VIRTIO_BLK_F_TOPOLOGY(), "VIRTIO_BLK_F_TOPOLOGY");
        BLOCK.put(vhost_h.VIRTIO_BLK_F_CONFIG_WCE(), "VIRTIO_BLK_F_CONFIG_WCE");
        BLOCK.put(vhost_h.VIRTIO_BLK_F_MQ(), "VIRTIO_BLK_F_MQ");
        BLOCK.put(vhost_h.VIRTIO_BLK_F_DISCARD(), "VIRTIO_BLK_F_DISCARD");
        BLOCK.put(vhost_h.VIRTIO_BLK_F_WRITE_ZEROES(), "VIRTIO_BLK_F_WRITE_ZEROES");
        BLOCK.put(vhost_h.VIRTIO_BLK_F_SECURE_ERASE(), "VIRTIO_BLK_F_SECURE_ERASE");
        BLOCK.put(vhost_h.VIRTIO_BLK_F_ZONED(), "VIRTIO_BLK_F_ZONED");
    }

    /** Bit mask of a feature bit number. */
    public static long bit(int n) {
        return 1L << n;
    }

    public boolean has(int bit) {
        return bit >= 0 && bit < 64 && (bits & (1L << bit)) != 0;
    }

    /** The same bits named for another device type. */
    public VirtioFeatures forDevice(int newDeviceId) {
        return new VirtioFeatures(bits, newDeviceId);
    }

    /** The name of one bit for a device type: device-specific names win below 24, transport names above. */
    public static String bitName(int bit, int deviceId) {
        String transport = TRANSPORT.get(bit);
        if (transport != null) {
            return transport;
        }
        Map<Integer, String> specific = deviceId == VirtioDeviceId.NET.id() ? NET
                : deviceId == VirtioDeviceId.BLOCK.id() ? BLOCK : Collections.emptyMap();
        String s = specific.get(bit);
        return s != null ? s : "bit " + bit;
    }

    /** Names of the set bits in bit order. */
    public List<String> names() {
        List<String> out = new ArrayList<>();
        for (int b = 0; b < 64; b++) {
            if (has(b)) {
                out.add(bitName(b, deviceId));
            }
        }
        return out;
    }

    /** "0x308830028 (VIRTIO_NET_F_MTU|VIRTIO_NET_F_MAC|...)". */
    @Override
    public String toString() {
        return "0x" + Long.toHexString(bits) + (bits == 0 ? "" : " (" + String.join("|", names()) + ")");
    }
}
