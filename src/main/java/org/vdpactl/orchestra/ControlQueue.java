package org.vdpactl.orchestra;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.vring_avail;
import org.vdpactl.ffi.gen.vhost.vring_desc;
import org.vdpactl.ffi.gen.vhost.vring_used;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.EventFd;
import org.vdpactl.vhost.VhostException;
import org.vdpactl.vhost.VringAddress;

/**
 * The driver side of a virtio-net control virtqueue (split ring) living in guest memory: what a
 * guest (or QEMU's shadow CVQ) does to send VIRTIO_NET_CTRL commands. One command at a time:
 * header, data and ack descriptors, kick through the kick eventfd, wait on the call eventfd
 * (poll(2), no spinning) until the used index moves, then read the ack byte.
 *
 * <p>The ring belongs to the lane, not to a device: a destination takes the ring over with the
 * avail index the source reached (its vring base), as after a real migration.
 */
final class ControlQueue {
    static final int VIRTIO_NET_CTRL_MQ = org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_CTRL_MQ();
    static final int VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET = org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET();
    static final int VIRTIO_NET_OK = org.vdpactl.ffi.gen.vhost.vhost_h.VIRTIO_NET_OK();

    private static final long PAGE = GuestRam.PAGE;
    private static final long HEADER_OFFSET = 0;
    private static final long DATA_OFFSET = 64;
    private static final long ACK_OFFSET = 128;
    private static final long AVAIL_RING_ENTRY = vring_avail.ring$layout().elementLayout().byteSize();

    private final GuestRam.RingSpace desc;
    private final GuestRam.RingSpace avail;
    private final GuestRam.RingSpace used;
    private final GuestRam.RingSpace buffers;
    private final int size;
    private int nextAvail;

    /** Bytes a control queue needs: the three ring areas and a page of command buffers. */
    static long bytes() {
        return 4 * PAGE;
    }

    /**
     * @param space {@link #bytes()} of ring memory
     * @param size  queue size (power of two, ≤ 256 so each area fits a page)
     */
    ControlQueue(GuestRam.RingSpace space, int size) {
        this.desc = space.slice(0, PAGE);
        this.avail = space.slice(PAGE, PAGE);
        this.used = space.slice(2 * PAGE, PAGE);
        this.buffers = space.slice(3 * PAGE, PAGE);
        this.size = size;
        space.memory().fill((byte) 0);
    }

    VringAddress address() {
        return VringAddress.of(desc.iova(), avail.iova(), used.iova());
    }

    /** Commands posted so far (mod 2^16): the vring base to give a device taking the queue over. */
    int availIndex() {
        return nextAvail & 0xFFFF;
    }

    /**
     * VIRTIO_NET_CTRL_MQ / VQ_PAIRS_SET: makes {@code pairs} queue pairs active.
     *
     * @throws VhostException ETIMEDOUT when the device does not answer in time, EIO when it answers
     *                        VIRTIO_NET_ERR
     */
    void setQueuePairs(Syscalls sys, String device, EventFd kick, EventFd call, int pairs, Duration timeout) {
        byte[] data = {(byte) pairs, (byte) (pairs >>> 8)};
        send(sys, device, kick, call, VIRTIO_NET_CTRL_MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET, data, timeout,
                "CVQ VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET(" + pairs + ")");
    }

    private void send(Syscalls sys, String device, EventFd kick, EventFd call, int cls, int cmd, byte[] data,
            Duration timeout, String what) {
        MemorySegment buf = buffers.memory();
        buf.set(ValueLayout.JAVA_BYTE, HEADER_OFFSET, (byte) cls);
        buf.set(ValueLayout.JAVA_BYTE, HEADER_OFFSET + 1, (byte) cmd);
        MemorySegment.copy(data, 0, buf, ValueLayout.JAVA_BYTE, DATA_OFFSET, data.length);
        buf.set(ValueLayout.JAVA_BYTE, ACK_OFFSET, (byte) 0xFF);
        short next = (short) vhost_h.VRING_DESC_F_NEXT();
        descriptor(0, buffers.iova() + HEADER_OFFSET, 2, next, 1);
        descriptor(1, buffers.iova() + DATA_OFFSET, data.length, next, 2);
        descriptor(2, buffers.iova() + ACK_OFFSET, 1, (short) vhost_h.VRING_DESC_F_WRITE(), 0);

        MemorySegment a = avail.memory();
        a.set(ValueLayout.JAVA_SHORT, vring_avail.ring$offset() + (nextAvail % size) * AVAIL_RING_ENTRY, (short) 0);
        nextAvail = (nextAvail + 1) & 0xFFFF;
        VarHandle.releaseFence(); // the device must see the descriptors before the index
        vring_avail.idx(a, (short) nextAvail);
        kick.signal();
        awaitUsed(sys, device, call, timeout, what);
        int ack = Byte.toUnsignedInt(buf.get(ValueLayout.JAVA_BYTE, ACK_OFFSET));
        if (ack != VIRTIO_NET_OK) {
            throw new VhostException(what, device, Errno.EIO, "the device answered " + (ack == 1 ? "VIRTIO_NET_ERR" : "ack " + ack)
                    + " (command refused: check that the device offers VIRTIO_NET_F_MQ and enough queue pairs)");
        }
    }

    private void descriptor(int i, long addr, int len, short flags, int next) {
        MemorySegment d = vring_desc.asSlice(desc.memory(), i);
        vring_desc.addr(d, addr);
        vring_desc.len(d, len);
        vring_desc.flags(d, flags);
        vring_desc.next(d, (short) next);
    }

    private void awaitUsed(Syscalls sys, String device, EventFd call, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (Short.toUnsignedInt(vring_used.idx(used.memory())) != nextAvail) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new VhostException(what, device, Errno.ETIMEDOUT, "the device did not complete the control command within "
                        + timeout.toMillis() + " ms (is the control virtqueue enabled and DRIVER_OK set?)");
            }
            int revents = sys.poll(call.fd(), libc_h.POLLIN(), (int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000)));
            if (revents != 0) {
                call.drain();
            }
            VarHandle.acquireFence();
        }
    }
}
