package org.vdpactl.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.vdpactl.conformance.device.RunningKernel;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.lane.LaneOnly;
import org.vdpactl.mgmt.VdpaAttributeSupport;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.sys.PanamaSyscalls;

/**
 * {@link DevAddAttributeCases} on the VM lane's real kernel (vdpa_sim; 6.1, 6.12 or the newest),
 * expected values from the profile of {@code uname -r}. Tag "kernel": `mvn test` on a host leaves
 * it out; run outside the VM on purpose it is skipped with a loud reason instead of failing on a
 * missing vdpa family.
 */
@Tag("kernel")
class KernelDevAddAttributeTest extends DevAddAttributeCases {

    @BeforeAll
    static void onlyInTheVm() {
        LaneOnly.requireVm();
    }

    @Override
    KernelProfile kernel() {
        return RunningKernel.profile();
    }

    @Override
    CliRun vdpactl(String... args) {
        String[] full = new String[args.length + 2];
        full[0] = "--backend";
        full[1] = "kernel";
        System.arraycopy(args, 0, full, 2, args.length);
        return CliRun.of(full);
    }

    @Override
    VdpaAttributeSupport probe() {
        try (VdpaNetlink nl = VdpaNetlink.open(new PanamaSyscalls())) {
            return nl.attributeSupport();
        }
    }
}
