package org.vdpactl.conformance.netlink;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.conformance.device.RunningKernel;
import org.vdpactl.sys.PanamaSyscalls;
import org.vdpactl.sys.Syscalls;

/**
 * The netlink conformance suite on a real kernel (the VM lane: Linux 6.12 with vdpa_sim, vdpa0
 * on vdpasim_net with MAC 02:00:00:00:00:01, vdpa1 on vdpasim_blk), run as root. Unprivileged
 * calls run on one thread that dropped CAP_NET_ADMIN from its own credentials (capabilities are
 * per thread in Linux), so no second process is needed. A missing family or device fails the
 * tests instead of skipping them.
 */
@Tag("kernel")
class KernelNetlinkConformanceTest extends NetlinkConformanceSuite {
    private static final Syscalls KERNEL = new PanamaSyscalls();
    private static CapDroppedThreadSyscalls unprivileged;

    @Override
    protected KernelProfile kernel() {
        return RunningKernel.profile();
    }

    @Override
    protected NetlinkBackend backend() {
        synchronized (KernelNetlinkConformanceTest.class) {
            if (unprivileged == null) {
                unprivileged = new CapDroppedThreadSyscalls(KERNEL);
            }
        }
        return new NetlinkBackend() {
            @Override
            public Syscalls privileged() {
                return KERNEL;
            }

            @Override
            public Syscalls unprivileged() {
                return unprivileged;
            }

            @Override
            public void close() {
            }
        };
    }

    @AfterAll
    static void stopUnprivilegedThread() {
        if (unprivileged != null) {
            unprivileged.close();
            unprivileged = null;
        }
    }
}
