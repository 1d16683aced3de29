package org.vdpactl.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.vdpactl.abi.UapiIoctl;
import org.vdpactl.ffi.gen.libc.libc_h;

/**
 * A failed ioctl is named by the ABI's table of vhost ioctls (the seam and the table are one module, so
 * nobody hands the seam a table and no text depends on who built it); any other number reads as itself.
 */
class IoctlNamesTest {
    private static final long SUSPEND = 0xAF7DL;

    @Test
    void theAbiNamesEveryVhostIoctlAndTheRestReadAsNumbers() {
        assertEquals("ioctl VHOST_VDPA_SUSPEND", UapiIoctl.operation(SUSPEND));
        assertEquals("ioctl VHOST_VDPA_SUSPEND", UapiIoctl.operation(0xFFFF_FFFF_0000_AF7DL), "the 32-bit command counts");
        assertEquals("ioctl 0x0000AFEE", UapiIoctl.operation(0xAFEEL));
        for (UapiIoctl io : UapiIoctl.values()) {
            assertEquals("ioctl " + io.name(), UapiIoctl.operation(io.request()));
        }
    }

    @Test
    void theSeamNamesAFailedIoctl() {
        PanamaSyscalls sys = new PanamaSyscalls();
        int[] p = sys.pipe(libc_h.O_CLOEXEC());
        try {
            SyscallException named = assertThrows(SyscallException.class, () -> sys.ioctl(p[0], SUSPEND, MemorySegment.NULL));
            assertEquals("ioctl VHOST_VDPA_SUSPEND", named.operation());
            assertEquals(Errno.ENOTTY, named.errno(), "a pipe knows no vhost ioctl");
            SyscallException plain = assertThrows(SyscallException.class, () -> sys.ioctl(p[0], 0xAFEEL, MemorySegment.NULL));
            assertEquals("ioctl 0x0000AFEE", plain.operation());
        } finally {
            sys.close(p[0]);
            sys.close(p[1]);
        }
    }
}
