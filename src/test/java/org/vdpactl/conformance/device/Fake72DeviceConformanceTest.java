package org.vdpactl.conformance.device;

import org.vdpactl.fake.kernel.KernelProfile;
import org.vdpactl.fake.kernel.KernelProfiles;

/** The device conformance suite on the fake kernel speaking Linux 7.2 (docs/kernel-profiles.md). */
class Fake72DeviceConformanceTest extends FakeDeviceConformanceTest {

    @Override
    protected KernelProfile kernel() {
        return KernelProfiles.byName("7.2").orElseThrow();
    }
}
