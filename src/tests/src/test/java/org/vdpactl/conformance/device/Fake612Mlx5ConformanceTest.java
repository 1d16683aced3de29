package org.vdpactl.conformance.device;

import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;

/** The mlx5 section of the device conformance suites on the fake kernel speaking Linux 6.12. */
class Fake612Mlx5ConformanceTest extends Mlx5ConformanceSuite {

    @Override
    protected KernelProfile kernel() {
        return KernelProfiles.byName("6.12").orElseThrow();
    }
}
