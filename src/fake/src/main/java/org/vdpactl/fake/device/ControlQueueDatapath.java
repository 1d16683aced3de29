package org.vdpactl.fake.device;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.mem.AddressSpace;
import org.vdpactl.fake.model.MapEntry;

/**
 * The device side of a virtio-net control virtqueue (split ring), as vdpa_sim_net's
 * vdpasim_handle_cvq and mlx5's CVQ worker do it: take each available descriptor chain, read the
 * {class, command} header and data through the device's IOTLB (the map of the CVQ group's ASID,
 * or the identity map where the device has one), execute, write the one-byte ack, publish the
 * used element and raise the vq interrupt. Guest memory is reached through the owner's address
 * space (vhost-vdpa's bind_mm).
 *
 * <p>Commands: VIRTIO_NET_CTRL_MAC / MAC_ADDR_SET (sets the config-space MAC) and
 * VIRTIO_NET_CTRL_MQ / VQ_PAIRS_SET (needs negotiated MQ and 1 ≤ pairs ≤ the device's pairs;
 * charged as the driver model's {@code changeNumQueuePairs}); on a driver with {@code cvqVlan} (mlx5
 * handle_ctrl_vlan) VIRTIO_NET_CTRL_VLAN ADD/DEL with a 2-byte id and CTRL_VLAN negotiated; everything
 * else is answered VIRTIO_NET_ERR. Descriptor chains longer than the ring, indirect descriptors and untranslatable
 * addresses stop processing, as a vringh error does.
 *
 * <p>Counted as vdpa_sim_net's vdpasim_handle_cvq counts for {@code dev vstats} queue 2: every
 * chain taken is a request; an OK ack a success, anything else an error; a chain whose header
 * cannot be read is an error and stops the queue (its head consumed, no used entry).
 */
final class ControlQueueDatapath {
    private static final Logger LOG = LoggerFactory.getLogger(ControlQueueDatapath.class);
    static final int CTRL_MAC = org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_CTRL_MAC();
    static final int CTRL_MAC_ADDR_SET = org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_CTRL_MAC_ADDR_SET();
    static final int CTRL_MQ = org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_CTRL_MQ();
    static final int CTRL_MQ_VQ_PAIRS_SET = org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET();
    /** include/uapi/linux/virtio_net.h VIRTIO_NET_CTRL_VLAN, _VLAN_ADD, _VLAN_DEL (not in the generated bindings). */
    static final int CTRL_VLAN = 2;
    static final int CTRL_VLAN_ADD = 0;
    static final int CTRL_VLAN_DEL = 1;
    private static final long F_CTRL_VLAN = 1L << org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_F_CTRL_VLAN();
    static final byte OK = (byte) org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_OK();
    static final byte ERR = (byte) org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_ERR();
    private static final int NO_INTERRUPT = org.vdpactl.ffi.gen.vhost.vhost_h.VRING_AVAIL_F_NO_INTERRUPT();
    /** sizeof(struct virtio_net_ctrl_hdr). */
    private static final int HEADER = 2;

    private final FakeVdpaDevice dev;
    private final RingMemory ring;
    private final NetDatapathStats stats;
    /** mlx5's control virtqueue, whose software counters this run advances; null for vdpa_sim. */
    private final Mlx5ControlVq mlx5Cvq;

    ControlQueueDatapath(FakeVdpaDevice dev, AddressSpace mm, List<MapEntry> map, boolean identity, NetDatapathStats stats,
                         Mlx5ControlVq mlx5Cvq) {
        this.dev = dev;
        this.ring = new RingMemory(mm, map, identity);
        this.stats = stats;
        this.mlx5Cvq = mlx5Cvq;
    }

    /**
     * Processes every available command of the vq; returns how many were completed.
     *
     * @param vq the device-side vq state (its {@code state} is the last avail index)
     */
    int run(FakeVdpaDevice.DeviceVq vq) {
        int done = 0;
        try {
            while (ring.hasAvailable(vq)) {
                int head = ring.takeHead(vq);
                stats.add(NetDatapathStats.CVQ_REQUESTS, 1);
                List<RingMemory.Buffer> chain = ring.chain(vq, head);
                byte[] cmd = ring.pull(chain, Integer.MAX_VALUE);
                if (cmd.length < HEADER) {
                    stats.add(NetDatapathStats.CVQ_ERRORS, 1);
                    LOG.info("{}: control command of {} bytes has no header; the queue stops", dev.name(), cmd.length);
                    break;
                }
                if (mlx5Cvq != null) {
                    mlx5Cvq.receivedDesc++; // mlx5_cvq_kick_handler: after the header was read
                }
                byte status = command(cmd);
                stats.add(status == OK ? NetDatapathStats.CVQ_SUCCESSES : NetDatapathStats.CVQ_ERRORS, 1);
                int written = ring.push(chain, new byte[] {status});
                ring.publishUsed(vq, head, written);
                if (mlx5Cvq != null) {
                    mlx5Cvq.completedDesc++;
                }
                if (mlx5Cvq == null || (ring.availFlags(vq) & NO_INTERRUPT) == 0) {
                    // mlx5_cvq_kick_handler notifies only when vringh_need_notify_iotlb says so: without EVENT_IDX
                    // (mlx5 offers none) that is "no VRING_AVAIL_F_NO_INTERRUPT" (vringh.c __vringh_need_notify,
                    // 6.1.192 l. 497-520); vdpa_sim_net calls the callback whatever the flags
                    dev.raise(vq.callback);
                }
                done++;
            }
        } catch (RingMemory.Fault f) {
            LOG.info("{}: control virtqueue stopped: {}", dev.name(), f.getMessage());
        }
        return done;
    }

    private byte command(byte[] cmd) {
        int cls = cmd[0] & 0xFF;
        int what = cmd[1] & 0xFF;
        if (cls == CTRL_MAC && what == CTRL_MAC_ADDR_SET && cmd.length >= 8) {
            byte[] mac = java.util.Arrays.copyOfRange(cmd, 2, 8);
            if (mlx5Cvq != null && !java.util.Arrays.equals(mac, dev.configMac()) && java.util.Arrays.equals(mac, new byte[6])) {
                // handle_ctrl_mac: the same MAC is OK, an all-zero one VIRTIO_NET_ERR, the MAC kept
                // (6.1.192 mlx5_vnet.c l. 1654-1660; 6.12.118 l. 2144-2150)
                return ERR;
            }
            dev.setConfigMacFromDriver(mac);
            return OK;
        }
        if (cls == CTRL_MQ && what == CTRL_MQ_VQ_PAIRS_SET && cmd.length >= 4) {
            int pairs = (cmd[2] & 0xFF) | (cmd[3] & 0xFF) << 8;
            try {
                dev.changeNumQueuePairs(pairs);
                return OK;
            } catch (KernelError e) {
                LOG.info("{}: VQ_PAIRS_SET({}) refused: {}", dev.name(), pairs, e.getMessage());
                return ERR;
            }
        }
        if (cls == CTRL_VLAN && (what == CTRL_VLAN_ADD || what == CTRL_VLAN_DEL) && cmd.length >= 4
                && mlx5Cvq != null && (dev.negotiatedFeatures() & F_CTRL_VLAN) != 0) {
            if (mlx5Cvq != null) {
                String rule = java.util.HexFormat.of().formatHex(dev.configMac()) + "/" + ((cmd[2] & 0xFF) | (cmd[3] & 0xFF) << 8);
                if (what == CTRL_VLAN_ADD) {
                    return mlx5Cvq.vlanRules.add(rule) ? OK : ERR; // handle_ctrl_vlan: mac_vlan_add -EEXIST is ERR
                }
                mlx5Cvq.vlanRules.remove(rule);
            }
            return OK; // VLAN_DEL is OK whether or not the rule existed (mac_vlan_del returns nothing)
        }
        return ERR;
    }
}
