package org.vdpactl.conformance.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;


import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.vdpactl.conformance.Cleanup;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;

/**
 * Who may open a vhost-vdpa node: devtmpfs makes it {@code crw------- root root} (verified-device.md,
 * "Node naming"), so a process that is not root and lacks CAP_DAC_OVERRIDE gets EACCES from open(2)
 * before the driver's single-opener rule is consulted, while stat(2) works for everyone. Run on the
 * fake kernel and on the VM lane's kernel with the same expectations.
 */
public abstract class NodeAccessConformanceSuite {
    static final String NET_NODE = "/dev/vhost-vdpa-0";

    /**
     * @param root       a seam with root's credentials
     * @param unprivileged a seam of uid/gid 65534 without CAP_DAC_OVERRIDE (same kernel)
     * @param release    what to release after a case
     */
    protected record Backend(Syscalls root, Syscalls unprivileged, AutoCloseable release) {
    }

    private Backend backend;
    private final Cleanup cleanup = new Cleanup();

    protected abstract Backend backend();

    @BeforeEach
    void start() {
        backend = backend();
        cleanup.track(backend.release()); // registered first: released after the case's own clean-ups
    }

    @AfterEach
    void stop() throws Exception {
        cleanup.closeAll();
    }

    static void assertErrno(int errno, Executable call) {
        SyscallException e = assertThrows(SyscallException.class, call);
        assertEquals(Errno.name(errno), e.errnoName(), e.getMessage());
    }

    @Test
    void theNodeIsACharDeviceOnlyRootMayOpenAndAnyoneMayStat() {
        FileStat st = backend.unprivileged().stat(NET_NODE);
        assertEquals(FileStat.Type.CHAR_DEVICE, st.type());
        assertEquals(0600, st.mode() & 07777);
        assertEquals(0, st.uid());
        assertEquals(0, st.gid());
    }

    @Test
    void anUnprivilegedOpenIsEaccesInEveryAccessMode() {
        Syscalls nobody = backend.unprivileged();
        assertErrno(Errno.EACCES, () -> nobody.open(NET_NODE, libc_h.O_RDWR() | libc_h.O_CLOEXEC()));
        assertErrno(Errno.EACCES, () -> nobody.open(NET_NODE, libc_h.O_RDONLY() | libc_h.O_CLOEXEC()));
        assertErrno(Errno.EACCES, () -> nobody.open(NET_NODE, libc_h.O_WRONLY() | libc_h.O_CLOEXEC()));
        int fd = backend.root().open(NET_NODE, libc_h.O_RDWR() | libc_h.O_CLOEXEC());
        backend.root().close(fd);
    }

    @Test
    void eaccesComesBeforeTheSingleOpenerRule() {
        int fd = backend.root().open(NET_NODE, libc_h.O_RDWR() | libc_h.O_CLOEXEC());
        cleanup.defer(() -> backend.root().close(fd));
        assertErrno(Errno.EACCES, () -> backend.unprivileged().open(NET_NODE, libc_h.O_RDWR() | libc_h.O_CLOEXEC()));
        assertErrno(Errno.EBUSY, () -> backend.root().open(NET_NODE, libc_h.O_RDWR() | libc_h.O_CLOEXEC()));
    }
}
