package org.vdpactl.conformance.device;

import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;

/** The device conformance suite on the fake kernel speaking Linux 6.1 (docs/kernel-profiles.md). */
class Fake61DeviceConformanceTest extends FakeDeviceConformanceTest {

    @Override
    protected KernelProfile kernel() {
        return KernelProfiles.byName("6.1").orElseThrow();
    }
}
