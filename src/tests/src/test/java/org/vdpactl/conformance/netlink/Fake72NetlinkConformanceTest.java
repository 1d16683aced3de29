package org.vdpactl.conformance.netlink;

import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;

/** The netlink conformance suite on the fake kernel speaking Linux 7.2 (docs/kernel-profiles.md). */
class Fake72NetlinkConformanceTest extends FakeNetlinkConformanceTest {

    @Override
    protected KernelProfile kernel() {
        return KernelProfiles.byName("7.2").orElseThrow();
    }
}
