package org.vdpactl.conformance.device;

import org.vdpactl.fake.Credentials;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;

/** The node-access contract on the fake kernel: one root process and one of uid/gid 65534. */
class FakeNodeAccessConformanceTest extends NodeAccessConformanceSuite {

    @Override
    protected Backend backend() {
        FakeKernel kernel = FakeKernel.builder().build();
        FakeProcess root = kernel.newProcess();
        FakeProcess nobody = kernel.newProcess();
        nobody.setCredentials(Credentials.user(65534, 65534));
        return new Backend(root, nobody, () -> {
            try (kernel) {
                root.close();
                nobody.close();
            }
        });
    }
}
