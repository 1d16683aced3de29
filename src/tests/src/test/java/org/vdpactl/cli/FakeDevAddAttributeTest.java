package org.vdpactl.cli;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.fake.netlink.FakeNetlink;
import org.vdpactl.mgmt.VdpaAttributeSupport;
import org.vdpactl.mgmt.VdpaNetlink;

/** {@link DevAddAttributeCases} on the fake kernel, once per kernel profile (oldest first). */
@ParameterizedClass(name = "{0}")
@MethodSource("org.vdpactl.abi.KernelProfiles#all")
class FakeDevAddAttributeTest extends DevAddAttributeCases {
    @Parameter
    KernelProfile kernel;
    @TempDir
    Path dir;

    String profile() {
        return kernel.version();
    }

    @Override
    KernelProfile kernel() {
        return kernel;
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
