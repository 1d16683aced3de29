package org.vdpactl.orchestra;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.vdpactl.sys.Errno;
import org.vdpactl.vhost.EventFd;
import org.vdpactl.vhost.NetControlCommand;
import org.vdpactl.vhost.SplitRing;
import org.vdpactl.vhost.VhostException;
import org.vdpactl.vhost.VringAddress;

/**
 * The driver side of a virtio-net control virtqueue living in guest memory: what a guest (or QEMU's
 * shadow CVQ) does to send VIRTIO_NET_CTRL commands. One command at a time: header, data and ack
 * descriptors on a {@link SplitRing}, kick through the kick eventfd, wait on the call eventfd (no
 * spinning) until the used index moves, then read the ack byte.
 *
 * <p>The ring belongs to the lane, not to a device: a destination takes the ring over with the
 * avail index the source reached (its vring base), as after a real migration.
 */
final class ControlQueue {
    private static final long PAGE = GuestRam.PAGE;
    private static final long HEADER_OFFSET = 0;
    private static final long DATA_OFFSET = 64;
    private static final long ACK_OFFSET = 128;

    private final GuestRam.RingSpace space;
    private final GuestRam.RingSpace desc;
    private final GuestRam.RingSpace avail;
    private final GuestRam.RingSpace used;
    private final GuestRam.RingSpace buffers;
    private final SplitRing ring;

    /** Bytes a control queue needs: the three ring areas and a page of command buffers. */
    static long bytes() {
        return 4 * PAGE;
    }

    /**
     * @param space {@link #bytes()} of ring memory
     * @param size  queue size (power of two, ≤ 256 so each area fits a page)
     */
    ControlQueue(GuestRam.RingSpace space, int size) {
        this.space = space;
        this.desc = space.slice(0, PAGE);
        this.avail = space.slice(PAGE, PAGE);
        this.used = space.slice(2 * PAGE, PAGE);
        this.buffers = space.slice(3 * PAGE, PAGE);
        space.memory().fill((byte) 0);
        this.ring = new SplitRing(desc.memory(), avail.memory(), used.memory(), size);
    }

    /** The whole of its memory: ring areas and command buffers (what an address space of its own must map). */
    GuestRam.RingSpace space() {
        return space;
    }

    VringAddress address() {
        return VringAddress.of(desc.iova(), avail.iova(), used.iova());
    }

    /** Commands posted so far (mod 2^16): the vring base to give a device taking the queue over. */
    int availIndex() {
        return ring.availIndex();
    }

    /**
     * VIRTIO_NET_CTRL_MQ / VQ_PAIRS_SET: makes {@code pairs} queue pairs active.
     *
     * @throws VhostException ETIMEDOUT when the device does not answer in time, EIO when it answers
     *                        VIRTIO_NET_ERR
     */
    void setQueuePairs(String device, EventFd kick, EventFd call, int pairs, Duration timeout) {
        send(device, kick, call, NetControlCommand.setQueuePairs(pairs), timeout);
    }

    private void send(String device, EventFd kick, EventFd call, NetControlCommand command, Duration timeout) {
        byte[] data = command.data();
        MemorySegment buf = buffers.memory();
        buf.set(ValueLayout.JAVA_BYTE, HEADER_OFFSET, (byte) command.cls());
        buf.set(ValueLayout.JAVA_BYTE, HEADER_OFFSET + 1, (byte) command.cmd());
        MemorySegment.copy(data, 0, buf, ValueLayout.JAVA_BYTE, DATA_OFFSET, data.length);
        buf.set(ValueLayout.JAVA_BYTE, ACK_OFFSET, (byte) 0xFF);
        ring.descriptor(0, buffers.iova() + HEADER_OFFSET, 2, SplitRing.DESC_F_NEXT, 1);
        ring.descriptor(1, buffers.iova() + DATA_OFFSET, data.length, SplitRing.DESC_F_NEXT, 2);
        ring.descriptor(2, buffers.iova() + ACK_OFFSET, 1, SplitRing.DESC_F_WRITE, 0);
        ring.publish(0);
        kick.signal();
        awaitUsed(device, call, timeout, command.name());
        int ack = Byte.toUnsignedInt(buf.get(ValueLayout.JAVA_BYTE, ACK_OFFSET));
        if (ack != NetControlCommand.ACK_OK) {
            throw new VhostException(command.name(), device, Errno.EIO, "the device answered " + NetControlCommand.describeAck(ack)
                    + " (command refused: check that the device offers VIRTIO_NET_F_MQ and enough queue pairs)");
        }
    }

    private void awaitUsed(String device, EventFd call, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ring.allUsed()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new VhostException(what, device, Errno.ETIMEDOUT, "the device did not complete the control command within "
                        + timeout.toMillis() + " ms (is the control virtqueue enabled and DRIVER_OK set?)");
            }
            if (call.awaitSignal((int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000)))) {
                call.drain();
            }
        }
    }
}
