package org.vdpactl.conformance.device;

import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.vdpactl.abi.KernelProfile;

/** The mlx5 section of the device conformance suites on the fake kernel, once per kernel profile (oldest first). */
@ParameterizedClass(name = "{0}")
@MethodSource("org.vdpactl.abi.KernelProfiles#all")
class FakeMlx5ConformanceTest extends Mlx5ConformanceSuite {
    @Parameter
    KernelProfile profile;

    @Override
    protected KernelProfile kernel() {
        return profile;
    }
}
