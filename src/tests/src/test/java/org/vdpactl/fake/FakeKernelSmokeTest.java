package org.vdpactl.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.vdpactl.fake.vhost.Vhost;
import org.vdpactl.vhost.VhostIoctl;

class FakeKernelSmokeTest {
    @Test
    void bringUpLikeQemu() {
        try (FakeKernel k = FakeKernel.builder().build(); FakeProcess p = k.newProcess();
             Vhost v = new Vhost(p, "/dev/vhost-vdpa-0")) {
            assertEquals(3, v.fd);
            v.setOwner();
            assertEquals(0x17E, v.getU64(VhostIoctl.GET_BACKEND_FEATURES));
            v.setU64(VhostIoctl.SET_BACKEND_FEATURES, 0x17E);
            assertEquals(1, v.getU32(VhostIoctl.VDPA_GET_DEVICE_ID));
            assertEquals(0x308830028L, v.getU64(VhostIoctl.GET_FEATURES));
            assertEquals(3, v.getU32(VhostIoctl.VDPA_GET_VQS_COUNT));
            assertEquals(1, v.vringState(VhostIoctl.VDPA_GET_VRING_GROUP, 2, 0));
            v.setStatus(1);
            v.setStatus(3);
            v.setU64(VhostIoctl.SET_FEATURES, 0x300000000L);
            v.setStatus(0xB);
            assertEquals(0xB, v.status());
            assertEquals(72, v.iotlb(0, Vhost.BATCH_BEGIN, 0, 0, 0));
            assertEquals(72, v.iotlb(0, Vhost.BATCH_END, 0, 0, 0));
            byte[] cfg = v.config(0, 24);
            assertEquals(2, cfg[0]);
            assertEquals(1, cfg[6]);
        }
    }
}
