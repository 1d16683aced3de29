package org.vdpactl.fake.device;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.mem.AddressSpace;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * vdpa_sim_net's data path (vdpasim_net_work, Linux 6.12): every frame the driver puts on the TX
 * queue (vq 1) is looped back into the next buffer of the RX queue (vq 0), bytes unchanged,
 * virtio_net_hdr included. Per TX chain, in the kernel's order:
 * <ul>
 *   <li>up to one page of the chain's readable buffers is read; nothing read → tx error, the TX
 *       chain is completed with length 0;</li>
 *   <li>the receive filter: a frame shorter than the virtio-net header (12 bytes with VERSION_1,
 *       else 10) plus a MAC, or whose destination is neither broadcast, multicast nor the config
 *       MAC (compared with strncmp, so bytes after a common NUL do not count), is an rx drop; TX
 *       completed with 0;</li>
 *   <li>no RX buffer → rx overrun, TX completed with 0, and the work stops;</li>
 *   <li>otherwise the frame is written into the RX chain's writable buffers (cut to their size);
 *       TX is completed with 0 and RX with the bytes written; nothing written → rx error and
 *       stop.</li>
 * </ul>
 * Chains that cannot be read (bad head, untranslatable ring) count as tx errors and stop the work.
 * The kernel handles five frames per run and queues itself again; the fake runs until the ring is
 * empty, which ends in the same rings and counters.
 */
final class NetLoopbackDatapath {
    private static final Logger LOG = LoggerFactory.getLogger(NetLoopbackDatapath.class);
    /** The kernel reads a frame into a PAGE_SIZE buffer. */
    private static final int BUFFER = 4096;
    private static final int ETH_ALEN = 6;
    /** sizeof(struct virtio_net_hdr_v1) and sizeof(struct virtio_net_hdr). */
    private static final int HDR_V1 = 12;
    private static final int HDR_LEGACY = 10;

    private final FakeVdpaDevice dev;
    private final RingMemory ring;
    private final NetDatapathStats stats;

    NetLoopbackDatapath(FakeVdpaDevice dev, AddressSpace mm, List<MapEntry> map, boolean identity, NetDatapathStats stats) {
        this.dev = dev;
        this.ring = new RingMemory(mm, map, identity);
        this.stats = stats;
    }

    /** Runs the TX queue dry into the RX queue; both must be ready. */
    void run(FakeVdpaDevice.DeviceVq rx, FakeVdpaDevice.DeviceVq tx, long negotiated, byte[] configMac) {
        if (!rx.ready || !tx.ready || rx.num == 0 || tx.num == 0) {
            return;
        }
        int hdrLen = (negotiated & (1L << vhost_h.VIRTIO_F_VERSION_1())) != 0 ? HDR_V1 : HDR_LEGACY;
        while (true) {
            int txHead;
            List<RingMemory.Buffer> txChain;
            try {
                if (!ring.hasAvailable(tx)) {
                    return;
                }
                txHead = ring.takeHead(tx);
                txChain = ring.chain(tx, txHead);
                if (txChain.stream().anyMatch(RingMemory.Buffer::deviceWritable)) {
                    throw new RingMemory.Fault("TX chain from " + txHead + " has a device-writable buffer");
                }
            } catch (RingMemory.Fault f) {
                stats.add(NetDatapathStats.TX_ERRORS, 1);
                LOG.info("{}: TX queue stopped: {}", dev.name(), f.getMessage());
                return;
            }
            byte[] frame;
            try {
                frame = ring.pull(txChain, BUFFER);
            } catch (RingMemory.Fault f) {
                frame = new byte[0];
            }
            if (frame.length == 0) {
                stats.add(NetDatapathStats.TX_ERRORS, 1);
                complete(tx, txHead, 0);
                continue;
            }
            stats.add(NetDatapathStats.TX_PACKETS, 1);
            stats.add(NetDatapathStats.TX_BYTES, frame.length);
            if (!receiveFilter(frame, hdrLen, configMac)) {
                stats.add(NetDatapathStats.RX_DROPS, 1);
                complete(tx, txHead, 0);
                continue;
            }
            int rxHead;
            List<RingMemory.Buffer> rxChain;
            try {
                if (!ring.hasAvailable(rx)) {
                    throw new RingMemory.Fault("no RX buffer");
                }
                rxHead = ring.takeHead(rx);
                rxChain = ring.chain(rx, rxHead);
                if (rxChain.stream().anyMatch(b -> !b.deviceWritable())) {
                    throw new RingMemory.Fault("RX chain from " + rxHead + " has a device-readable buffer");
                }
            } catch (RingMemory.Fault f) {
                stats.add(NetDatapathStats.RX_OVERRUNS, 1);
                complete(tx, txHead, 0);
                return;
            }
            int written;
            try {
                written = ring.push(rxChain, frame);
            } catch (RingMemory.Fault f) {
                written = 0;
            }
            if (written <= 0) {
                stats.add(NetDatapathStats.RX_ERRORS, 1);
                return;
            }
            stats.add(NetDatapathStats.RX_PACKETS, 1);
            stats.add(NetDatapathStats.RX_BYTES, written);
            complete(tx, txHead, 0);
            complete(rx, rxHead, written);
        }
    }

    private void complete(FakeVdpaDevice.DeviceVq vq, int head, int len) {
        try {
            ring.publishUsed(vq, head, len);
            dev.raise(vq.callback);
        } catch (RingMemory.Fault f) {
            LOG.info("{}: used ring not writable: {}", dev.name(), f.getMessage());
        }
    }

    /** receive_filter of vdpa_sim_net. */
    static boolean receiveFilter(byte[] frame, int hdrLen, byte[] configMac) {
        if (frame.length < ETH_ALEN + hdrLen) {
            return false;
        }
        boolean broadcast = true;
        for (int i = 0; i < ETH_ALEN; i++) {
            broadcast &= frame[hdrLen + i] == (byte) 0xFF;
        }
        boolean multicast = (frame[hdrLen] & 1) != 0;
        return broadcast || multicast || strncmpEquals(frame, hdrLen, configMac, ETH_ALEN);
    }

    /** strncmp(a + offset, b, n) == 0: equal up to n bytes or up to a NUL both have. */
    static boolean strncmpEquals(byte[] a, int offset, byte[] b, int n) {
        for (int i = 0; i < n; i++) {
            if (a[offset + i] != b[i]) {
                return false;
            }
            if (a[offset + i] == 0) {
                return true;
            }
        }
        return true;
    }
}
