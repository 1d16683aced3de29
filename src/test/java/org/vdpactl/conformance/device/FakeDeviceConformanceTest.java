package org.vdpactl.conformance.device;

import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.netlink.FakeNetlink;

/**
 * The device conformance suite on the fake kernel: a fresh kernel per case with its default
 * inventory (vdpa0 = vdpasim_net MAC 02:00:00:00:00:01 → /dev/vhost-vdpa-0, vdpa1 = vdpasim_blk →
 * /dev/vhost-vdpa-1), driven by one fake process.
 */
class FakeDeviceConformanceTest extends DeviceConformanceSuite {

    @Override
    protected DeviceBackend backend() {
        FakeKernel kernel = FakeKernel.builder().build();
        FakeNetlink.install(kernel); // a few cases read back through vdpa netlink what the device holds
        FakeProcess process = kernel.newProcess();
        return DeviceBackend.standardNodes(process, () -> {
            try (kernel) {
                process.close();
            }
        });
    }
}
