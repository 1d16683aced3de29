package org.vdpactl.conformance.netlink;

import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;

/** The netlink conformance suite on the fake kernel speaking Linux 6.1 (docs/kernel-profiles.md). */
class Fake61NetlinkConformanceTest extends FakeNetlinkConformanceTest {

    @Override
    protected KernelProfile kernel() {
        return KernelProfiles.byName("6.1").orElseThrow();
    }
}
