package org.vdpactl.conformance.device;

import org.junit.jupiter.api.Tag;
import org.vdpactl.sys.PanamaSyscalls;

/**
 * The node-access contract on the VM lane's kernel, run as root: the unprivileged side is one
 * thread that set its filesystem uid and gid to 65534 (which also clears its CAP_DAC_OVERRIDE),
 * so the JVM's other threads stay root.
 */
@Tag("kernel")
class KernelNodeAccessConformanceTest extends NodeAccessConformanceSuite {
    private static final PanamaSyscalls KERNEL = new PanamaSyscalls();

    @Override
    protected Backend backend() {
        FsuidThreadSyscalls nobody = new FsuidThreadSyscalls(KERNEL, 65534, 65534);
        return new Backend(KERNEL, nobody, nobody::close);
    }
}
