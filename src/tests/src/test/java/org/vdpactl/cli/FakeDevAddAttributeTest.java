package org.vdpactl.cli;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.netlink.FakeNetlink;
import org.vdpactl.mgmt.VdpaAttributeSupport;
import org.vdpactl.mgmt.VdpaNetlink;

/** {@link DevAddAttributeCases} on the fake kernel speaking 6.12 (Fake61/Fake72DevAddAttributeTest: the other profiles). */
class FakeDevAddAttributeTest extends DevAddAttributeCases {
    @TempDir
    Path dir;

    String profile() {
        return "6.12";
    }

    @Override
    KernelProfile kernel() {
        return KernelProfiles.byName(profile()).orElseThrow();
    }

    @Override
    CliRun vdpactl(String... args) {
        String[] full = new String[args.length + 6];
        full[0] = "--backend";
        full[1] = "fake";
        full[2] = "--fake-kernel";
        full[3] = profile();
        full[4] = "--fake-state";
        full[5] = dir.resolve("state.json").toString();
        System.arraycopy(args, 0, full, 6, args.length);
        return CliRun.of(full);
    }

    @Override
    VdpaAttributeSupport probe() {
        try (FakeKernel k = FakeKernel.builder().kernel(profile()).build()) {
            FakeNetlink.install(k);
            try (FakeProcess p = k.newProcess(); VdpaNetlink nl = VdpaNetlink.open(p)) {
                return nl.attributeSupport();
            }
        }
    }
}
