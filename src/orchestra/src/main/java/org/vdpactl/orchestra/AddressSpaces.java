package org.vdpactl.orchestra;

import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.BackendFeatures;
import org.vdpactl.vhost.VhostIoctl;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * Whether a device's control queue can have an address space of its own, decided as QEMU decides
 * it (net/vhost-vdpa.c vhost_vdpa_net_cvq_start, QEMU 8.0 on): the backend acks
 * VHOST_BACKEND_F_IOTLB_ASID, the device has a second address space, and no data virtqueue is in
 * the control queue's group. Otherwise every virtqueue stays in address space 0, as QEMU leaves it.
 *
 * @param cvqGroup  the control queue's group, or -1
 * @param cvqAsid   the address space the control queue runs in while the data vrings are not
 *                  shadowed: {@link #CVQ_ASID} when isolated, else 0
 * @param reason    why the control queue shares address space 0 (null when isolated)
 */
record AddressSpaces(int cvqGroup, int cvqAsid, String reason) {
    /** QEMU's VHOST_VDPA_NET_CVQ_ASID. */
    static final int CVQ_ASID = 1;
    static final AddressSpaces NOT_READ = new AddressSpaces(-1, 0, "address spaces not read yet");

    boolean cvqIsolated() {
        return cvqAsid != 0;
    }

    /** Reads GET_GROUP_NUM, GET_AS_NUM and every virtqueue's group through the session's recorder. */
    static AddressSpaces read(DeviceSession s, VhostVdpaDevice dev, BackendFeatures acked) {
        int cvq = s.controlQueueIndex();
        if (cvq < 0) {
            return new AddressSpaces(-1, 0, "no control queue");
        }
        if (!acked.has(BackendFeature.IOTLB_ASID)) {
            return new AddressSpaces(-1, 0, "the backend does not offer VHOST_BACKEND_F_IOTLB_ASID");
        }
        int ases = s.rec.call(VhostIoctl.VDPA_GET_AS_NUM.kernelName(), dev::getAsNum);
        int cvqGroup = s.rec.call(VhostIoctl.VDPA_GET_VRING_GROUP.kernelName() + " vq" + cvq, () -> dev.getVringGroup(cvq));
        if (ases < 2) {
            return new AddressSpaces(cvqGroup, 0, "the device has " + ases + " address space");
        }
        for (int vq = 0; vq < cvq; vq++) {
            int q = vq;
            int group = s.rec.call(VhostIoctl.VDPA_GET_VRING_GROUP.kernelName() + " vq" + q, () -> dev.getVringGroup(q));
            if (group == cvqGroup) {
                return new AddressSpaces(cvqGroup, 0, "data virtqueue " + q + " shares the control queue's group " + cvqGroup);
            }
        }
        return new AddressSpaces(cvqGroup, CVQ_ASID, null);
    }
}
