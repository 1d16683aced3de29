package org.vdpactl.conformance.device;

import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.netlink.FakeNetlink;
import org.vdpactl.abi.KernelProfile;

/**
 * The device conformance suite on the fake kernel, once per kernel profile (oldest first; the expected values
 * are the profile's facts): a fresh kernel per case with its default
 * inventory (vdpa0 = vdpasim_net MAC 02:00:00:00:00:01 → /dev/vhost-vdpa-0, vdpa1 = vdpasim_blk →
 * /dev/vhost-vdpa-1), driven by one fake process.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("org.vdpactl.abi.KernelProfiles#all")
public class FakeDeviceConformanceTest extends DeviceConformanceSuite {
    @Parameter
    KernelProfile profile;

    @Override
    protected KernelProfile kernel() {
        return profile;
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
