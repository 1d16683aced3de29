package org.vdpactl.conformance.device;

import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;

/** The device conformance suite on the fake kernel speaking Linux 7.2 (docs/kernel-profiles.md). */
class Fake72DeviceConformanceTest extends FakeDeviceConformanceTest {

    @Override
    protected KernelProfile kernel() {
        return KernelProfiles.byName("7.2").orElseThrow();
    }
}
