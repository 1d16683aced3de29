package org.vdpactl.fake.device;

import java.util.Arrays;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.fault.DriverCall;
import org.vdpactl.fake.mem.AddressSpace;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * The device side of a virtio-net control virtqueue (split ring), as vdpa_sim_net's
 * vdpasim_handle_cvq and mlx5's CVQ worker do it: take each available descriptor chain, read the
 * {class, command} header and data through the device's IOTLB (the map of the CVQ group's ASID,
 * or the identity map where the device has one), execute, write the one-byte ack, publish the
 * used element and raise the vq interrupt. Guest memory is reached through the owner's address
 * space (vhost-vdpa's bind_mm).
 *
 * <p>Commands: VIRTIO_NET_CTRL_MAC / MAC_ADDR_SET, VIRTIO_NET_CTRL_MQ / VQ_PAIRS_SET and VIRTIO_NET_CTRL_VLAN
 * ADD/DEL (a 2-byte id) are answered by the parent driver's handler ({@link VdpaConfigOps#cvqMacAddrSet},
 * {@link VdpaConfigOps#cvqVqPairsSet}, {@link VdpaConfigOps#cvqVlan}); everything else is answered
 * VIRTIO_NET_ERR. Whether a completion signals the interrupt and what the driver counts are its ops' too.
 * Descriptor chains longer than the ring, indirect descriptors and untranslatable addresses stop processing,
 * as a vringh error does.
 *
 * <p>Counted as vdpa_sim_net's vdpasim_handle_cvq counts for {@code dev vstats} queue 2: every
 * chain taken is a request; an OK ack a success, anything else an error; a chain whose header
 * cannot be read is an error and stops the queue (its head consumed, no used entry).
 */
final class ControlQueueDatapath {
    private static final Logger LOG = LoggerFactory.getLogger(ControlQueueDatapath.class);
    static final int CTRL_MAC = vhost_h.VIRTIO_NET_CTRL_MAC();
    static final int CTRL_MAC_ADDR_SET = vhost_h.VIRTIO_NET_CTRL_MAC_ADDR_SET();
    static final int CTRL_MQ = vhost_h.VIRTIO_NET_CTRL_MQ();
    static final int CTRL_MQ_VQ_PAIRS_SET = vhost_h.VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET();
    /** include/uapi/linux/virtio_net.h VIRTIO_NET_CTRL_VLAN, _VLAN_ADD, _VLAN_DEL (not in the generated bindings). */
    static final int CTRL_VLAN = 2;
    static final int CTRL_VLAN_ADD = 0;
    static final int CTRL_VLAN_DEL = 1;
    static final byte OK = (byte) vhost_h.VIRTIO_NET_OK();
    static final byte ERR = (byte) vhost_h.VIRTIO_NET_ERR();
    /** sizeof(struct virtio_net_ctrl_hdr). */
    private static final int HEADER = 2;

    private final FakeVdpaDevice dev;
    private final RingMemory ring;
    private final NetDatapathStats stats;
    private final VdpaConfigOps ops;

    ControlQueueDatapath(FakeVdpaDevice dev, AddressSpace mm, List<MapEntry> map, boolean identity, NetDatapathStats stats) {
        this.dev = dev;
        this.ring = new RingMemory(mm, map, identity);
        this.stats = stats;
        this.ops = dev.ops();
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
                ops.cvqCommandRead();
                byte status = command(cmd);
                stats.add(status == OK ? NetDatapathStats.CVQ_SUCCESSES : NetDatapathStats.CVQ_ERRORS, 1);
                int written = ring.push(chain, new byte[] {status});
                ring.publishUsed(vq, head, written);
                if (ops.cvqCommandDone(ring.availFlags(vq))) {
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
            return ops.cvqMacAddrSet(Arrays.copyOfRange(cmd, 2, 8));
        }
        if (cls == CTRL_MQ && what == CTRL_MQ_VQ_PAIRS_SET && cmd.length >= 4) {
            return ops.cvqVqPairsSet(le16(cmd));
        }
        if (cls == CTRL_VLAN && (what == CTRL_VLAN_ADD || what == CTRL_VLAN_DEL) && cmd.length >= 4) {
            return ops.cvqVlan(what == CTRL_VLAN_ADD, le16(cmd));
        }
        return ERR;
    }

    /** The little-endian 16-bit value after the header (VQ_PAIRS_SET's pairs, a VLAN id). */
    private static int le16(byte[] cmd) {
        return (cmd[2] & 0xFF) | (cmd[3] & 0xFF) << 8;
    }

    /** VQ_PAIRS_SET as virtio-net asks of every device: negotiated MQ and 1 ≤ pairs ≤ the device's pairs, then the model's work. */
    static byte vqPairsSet(FakeVdpaDevice dev, int pairs) {
        long mq = 1L << vhost_h.VIRTIO_NET_F_MQ();
        if ((dev.negotiatedFeatures() & mq) == 0 || pairs < 1 || pairs > dev.vqPairs()) {
            LOG.info("{}: VQ_PAIRS_SET({}) refused: without MQ or outside 1..{}", dev.name(), pairs, dev.vqPairs());
            return ControlQueueDatapath.ERR;
        }
        try {
            dev.charge(DriverCall.CHANGE_NUM_QPS, () -> dev.model().changeNumQueuePairs(pairs));
            return ControlQueueDatapath.OK;
        } catch (KernelError e) {
            LOG.info("{}: VQ_PAIRS_SET({}) refused: {}", dev.name(), pairs, e.getMessage());
            return ControlQueueDatapath.ERR;
        }
    }
}
