package org.vdpactl.conformance.device;

import org.junit.jupiter.api.Tag;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.sys.PanamaSyscalls;

/**
 * The device conformance suite on a real kernel (the VM lane: 6.1, 6.12 or 7.2 with vdpa_sim,
 * vdpa0 = vdpasim_net MAC 02:00:00:00:00:01 → /dev/vhost-vdpa-0, vdpa1 = vdpasim_blk →
 * /dev/vhost-vdpa-1). A missing node fails the tests instead of skipping them: a lane that
 * silently skips hides exactly the bugs this suite exists for.
 */
@Tag("kernel")
class KernelDeviceConformanceTest extends DeviceConformanceSuite {
    private static final PanamaSyscalls KERNEL = new PanamaSyscalls();

    @Override
    protected KernelProfile kernel() {
        return RunningKernel.profile();
    }

    @Override
    protected DeviceBackend backend() {
        return DeviceBackend.standardNodes(KERNEL, () -> { });
    }
}
