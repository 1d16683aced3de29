package org.vdpactl.fake.device;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.bus.KernelError;
import org.vdpactl.fake.mem.AddressSpace;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.vring_avail;
import org.vdpactl.ffi.gen.vhost.vring_desc;
import org.vdpactl.ffi.gen.vhost.vring_used;
import org.vdpactl.ffi.gen.vhost.vring_used_elem;

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
 * charged as the driver model's {@code changeNumQueuePairs}); everything else is answered
 * VIRTIO_NET_ERR. Descriptor chains longer than the ring, indirect descriptors and untranslatable
 * addresses stop processing, as a vringh error does.
 */
final class ControlQueueDatapath {
    private static final Logger LOG = LoggerFactory.getLogger(ControlQueueDatapath.class);
    static final int CTRL_MAC = org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_CTRL_MAC();
    static final int CTRL_MAC_ADDR_SET = org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_CTRL_MAC_ADDR_SET();
    static final int CTRL_MQ = org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_CTRL_MQ();
    static final int CTRL_MQ_VQ_PAIRS_SET = org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET();
    static final byte OK = (byte) org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_OK();
    static final byte ERR = (byte) org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_ERR();
    private static final long DESC_SIZE = vring_desc.layout().byteSize();
    private static final long AVAIL_ENTRY = vring_avail.ring$layout().elementLayout().byteSize();
    private static final long USED_ENTRY = vring_used_elem.layout().byteSize();
    private static final int F_NEXT = vhost_h.VRING_DESC_F_NEXT();
    private static final int F_WRITE = vhost_h.VRING_DESC_F_WRITE();
    private static final int F_INDIRECT = vhost_h.VRING_DESC_F_INDIRECT();

    private final FakeVdpaDevice dev;
    private final AddressSpace mm;
    private final List<MapEntry> map;
    private final boolean identity;

    /** A translation fault: the ring or a buffer is not reachable. */
    private static final class Fault extends RuntimeException {
        Fault(String message) {
            super(message, null, false, false);
        }
    }

    ControlQueueDatapath(FakeVdpaDevice dev, AddressSpace mm, List<MapEntry> map, boolean identity) {
        this.dev = dev;
        this.mm = mm;
        this.map = map;
        this.identity = identity;
    }

    /**
     * Processes every available command of the vq; returns how many were completed.
     *
     * @param vq the device-side vq state (its {@code state} is the last avail index)
     */
    int run(FakeVdpaDevice.DeviceVq vq) {
        int done = 0;
        try {
            int availIdx = u16(vq.driverArea + vring_avail.idx$offset());
            while ((vq.state & 0xFFFF) != availIdx) {
                int slot = (int) ((vq.state & 0xFFFF) % vq.num);
                int head = u16(vq.driverArea + vring_avail.ring$offset() + slot * AVAIL_ENTRY);
                byte status = execute(vq, head);
                vq.state = (vq.state + 1) & 0xFFFF;
                publishUsed(vq, head, status >= 0 ? 1 : 0);
                done++;
            }
        } catch (Fault f) {
            LOG.info("{}: control virtqueue stopped: {}", dev.name(), f.getMessage());
        }
        return done;
    }

    /** Walks one chain, runs the command and writes the ack; returns the ack or -1 without an ack buffer. */
    private byte execute(FakeVdpaDevice.DeviceVq vq, int head) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        long ackAddr = -1;
        int i = head;
        for (int n = 0; ; n++) {
            if (n >= vq.num || i >= vq.num) {
                throw new Fault("descriptor chain from " + head + " is longer than the ring or leaves it");
            }
            MemorySegment d = read(vq.descArea + i * DESC_SIZE, DESC_SIZE);
            int flags = Short.toUnsignedInt(vring_desc.flags(d));
            long addr = vring_desc.addr(d);
            int len = vring_desc.len(d);
            if ((flags & F_INDIRECT) != 0) {
                throw new Fault("indirect descriptors are not supported on the control virtqueue");
            }
            if ((flags & F_WRITE) != 0) {
                if (ackAddr == -1 && len >= 1) {
                    ackAddr = addr;
                }
            } else {
                out.writeBytes(read(addr, len).toArray(ValueLayout.JAVA_BYTE));
            }
            if ((flags & F_NEXT) == 0) {
                break;
            }
            i = Short.toUnsignedInt(vring_desc.next(d));
        }
        byte ack = command(out.toByteArray());
        if (ackAddr == -1) {
            return -1;
        }
        write(ackAddr, new byte[] {ack});
        return ack;
    }

    private byte command(byte[] cmd) {
        if (cmd.length < 2) {
            return ERR;
        }
        int cls = cmd[0] & 0xFF;
        int what = cmd[1] & 0xFF;
        if (cls == CTRL_MAC && what == CTRL_MAC_ADDR_SET && cmd.length >= 8) {
            dev.setConfigMacFromDriver(java.util.Arrays.copyOfRange(cmd, 2, 8));
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
        return ERR;
    }

    private void publishUsed(FakeVdpaDevice.DeviceVq vq, int head, int len) {
        MemorySegment e = MemorySegment.ofArray(new long[1]);
        vring_used_elem.id(e, head);
        vring_used_elem.len(e, len);
        long slot = (vq.usedIdx & 0xFFFF) % vq.num;
        write(vq.deviceArea + vring_used.ring$offset() + slot * USED_ENTRY, e.toArray(ValueLayout.JAVA_BYTE));
        vq.usedIdx = (vq.usedIdx + 1) & 0xFFFF;
        MemorySegment idx = MemorySegment.ofArray(new short[] {(short) vq.usedIdx});
        write(vq.deviceArea + vring_used.idx$offset(), idx.toArray(ValueLayout.JAVA_BYTE));
        dev.raise(vq.callback);
    }

    private int u16(long iova) {
        return Short.toUnsignedInt(read(iova, 2).get(ValueLayout.JAVA_SHORT, 0));
    }

    private MemorySegment read(long iova, long length) {
        byte[] b = new byte[(int) length];
        if (!mm.read(translate(iova, length), b)) {
            throw new Fault(String.format("IOVA %#x+%d is not in the owner's memory", iova, length));
        }
        MemorySegment aligned = MemorySegment.ofArray(new long[(int) ((length + 7) / 8)]).asSlice(0, length);
        aligned.copyFrom(MemorySegment.ofArray(b));
        return aligned;
    }

    private void write(long iova, byte[] data) {
        if (!mm.write(translate(iova, data.length), data)) {
            throw new Fault(String.format("IOVA %#x+%d is not in the owner's memory", iova, data.length));
        }
    }

    /** IOVA → user address through the device's map of the CVQ group's ASID. */
    private long translate(long iova, long length) {
        if (map == null) {
            if (identity) {
                return iova;
            }
            throw new Fault("no translation for the control virtqueue's address space");
        }
        for (MapEntry e : map) {
            if (Long.compareUnsigned(iova, e.iova()) >= 0 && Long.compareUnsigned(iova - e.iova(), e.size()) < 0) {
                if (Long.compareUnsigned(length, e.size() - (iova - e.iova())) > 0) {
                    throw new Fault(String.format("IOVA %#x+%d crosses an IOTLB entry", iova, length));
                }
                return e.uaddr() + (iova - e.iova());
            }
        }
        throw new Fault(String.format("IOVA %#x is not mapped", iova));
    }
}
