package org.vdpactl.conformance.device;

import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.netlink.FakeNetlink;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;

/**
 * The device conformance suite on the fake kernel speaking 6.12 (subclasses: the other profiles): a fresh kernel per case with its default
 * inventory (vdpa0 = vdpasim_net MAC 02:00:00:00:00:01 → /dev/vhost-vdpa-0, vdpa1 = vdpasim_blk →
 * /dev/vhost-vdpa-1), driven by one fake process.
 */
public class FakeDeviceConformanceTest extends DeviceConformanceSuite {

    @Override
    protected KernelProfile kernel() {
        return KernelProfiles.defaultProfile();
    }

    @Override
    protected DeviceBackend backend() {
        FakeKernel kernel = FakeKernel.builder().kernel(kernel()).build();
        FakeNetlink.install(kernel); // vendor statistics of the datapath cases
        FakeProcess process = kernel.newProcess();
        return DeviceBackend.standardNodes(process, () -> {
            try (kernel) {
                process.close();
            }
        });
    }
}
