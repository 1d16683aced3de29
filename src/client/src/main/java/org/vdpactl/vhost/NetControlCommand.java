package org.vdpactl.vhost;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * A virtio-net control-virtqueue command (virtio 1.x §5.1.6.5): class, command and data, as a
 * driver puts them in the header and data buffers of a control-queue chain; the device answers
 * one ack byte.
 *
 * @param cls  VIRTIO_NET_CTRL_* class
 * @param cmd  command within the class
 * @param data command-specific data (little-endian fields)
 * @param name how the command is named in errors and timelines
 */
public record NetControlCommand(int cls, int cmd, byte[] data, String name) {
    /** The ack of a command the device carried out. */
    public static final int ACK_OK = vhost_h.VIRTIO_NET_OK();
    /** The ack of a command the device refused. */
    public static final int ACK_ERR = vhost_h.VIRTIO_NET_ERR();

    public NetControlCommand {
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    /** VIRTIO_NET_CTRL_MQ / VQ_PAIRS_SET: makes {@code pairs} queue pairs active. */
    public static NetControlCommand setQueuePairs(int pairs) {
        if (pairs < 1 || pairs > 0xFFFF) {
            throw new IllegalArgumentException("queue pairs out of range: " + pairs);
        }
        return new NetControlCommand(vhost_h.VIRTIO_NET_CTRL_MQ(), vhost_h.VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET(),
                new byte[] {(byte) pairs, (byte) (pairs >>> 8)}, "CVQ VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET(" + pairs + ")");
    }

    /** How an ack byte reads in an error. */
    public static String describeAck(int ack) {
        return ack == ACK_ERR ? "VIRTIO_NET_ERR" : "ack " + ack;
    }
}
