package org.vdpactl.lane.qemu;

import org.vdpactl.vhost.IotlbMessageType;
import org.vdpactl.vhost.VhostIoctl;

/**
 * One call a client made on a /dev/vhost-vdpa-N node, reduced to what both captures can see: the
 * ioctl (with its vq index or status byte where known) or the IOTLB message written (type and
 * address space). {@link #token()} is what the comparison compares.
 *
 * @param ioctl   the ioctl, or null for an IOTLB write
 * @param vq      the vring index (-1: not a vring call, or the capture could not see it)
 * @param status  the status byte of SET_STATUS (-1 otherwise)
 * @param iotlb   the IOTLB message type of a write (null for an ioctl)
 * @param asid    the IOTLB message's address space (-1 for an ioctl)
 * @param atNanos when the call started, on the capture's own clock
 */
public record NodeCall(VhostIoctl ioctl, int vq, int status, IotlbMessageType iotlb, int asid, long atNanos) {

    static NodeCall ioctl(VhostIoctl ioctl, int vq, int status, long atNanos) {
        return new NodeCall(ioctl, vq, status, null, -1, atNanos);
    }

    static NodeCall iotlb(IotlbMessageType type, int asid, long atNanos) {
        return new NodeCall(null, -1, -1, type, asid, atNanos);
    }

    public boolean isIotlb() {
        return iotlb != null;
    }

    public boolean is(VhostIoctl i) {
        return ioctl == i;
    }

    /**
     * "VHOST_SET_VRING_NUM vq2", "VHOST_VDPA_SET_STATUS 0x7", "IOTLB UPDATE asid0". The vq index of
     * VHOST_VDPA_SET_VRING_ENABLE is left out: QEMU 7.2's trace point for it has none.
     */
    String token() {
        if (isIotlb()) {
            return "IOTLB " + iotlb.name() + (asid > 0 ? " asid" + asid : "");
        }
        String name = ioctl.kernelName();
        if (status >= 0) {
            return name + " 0x" + Integer.toHexString(status);
        }
        if (vq >= 0 && ioctl != VhostIoctl.VDPA_SET_VRING_ENABLE) {
            return name + " vq" + vq;
        }
        return name;
    }

    @Override
    public String toString() {
        return token();
    }
}
