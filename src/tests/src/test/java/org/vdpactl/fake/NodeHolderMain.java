package org.vdpactl.fake;

import java.nio.file.Path;
import java.util.List;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.time.VirtualClock;

/**
 * A separate process holding /dev/vhost-vdpa-N open on a shared fake state, for
 * SharedKernelNodeTest: prints "open" once the node is open, then holds it until killed or until
 * its stdin closes.
 */
public final class NodeHolderMain {
    private NodeHolderMain() {
    }

    public static void main(String[] args) throws Exception {
        Path state = Path.of(args[0]);
        try (FakeKernel k = FakeKernel.openShared(state, new VirtualClock(), List.of()); FakeProcess p = k.newProcess()) {
            int fd = p.open(args[1], libc_h.O_RDWR() | libc_h.O_CLOEXEC());
            System.out.println("open");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the node until the test kills this process or closes our stdin
            }
            p.close(fd);
        }
    }
}
