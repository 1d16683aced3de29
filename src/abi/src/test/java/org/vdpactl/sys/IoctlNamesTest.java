package org.vdpactl.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.vdpactl.ffi.gen.libc.libc_h;

/**
 * A failed ioctl is named by the table its seam was built with, and only by that: nothing here
 * loads the vhost layer, so a text cannot depend on what was loaded before.
 */
class IoctlNamesTest {
    private static final long SUSPEND = 0xAF7DL;

    @Test
    void aTableNamesItsCommandsAndTheRestReadAsNumbers() {
        IoctlNames names = new IoctlNames(c -> c == SUSPEND ? "VHOST_VDPA_SUSPEND" : null);
        assertEquals("ioctl VHOST_VDPA_SUSPEND", names.name(SUSPEND));
        assertEquals("ioctl VHOST_VDPA_SUSPEND", names.name(0xFFFF_FFFF_0000_AF7DL), "the 32-bit command counts");
        assertEquals("ioctl 0x0000AF7E", names.name(0xAF7EL));
        assertEquals("ioctl 0x0000AF7D", IoctlNames.NUMERIC.name(SUSPEND));
    }

    @Test
    void theSeamNamesAFailedIoctlWithTheTableItWasGiven() {
        int[] p = new PanamaSyscalls().pipe(libc_h.O_CLOEXEC());
        try {
            SyscallException named = assertThrows(SyscallException.class, () -> new PanamaSyscalls(
                    new IoctlNames(c -> c == SUSPEND ? "VHOST_VDPA_SUSPEND" : null)).ioctl(p[0], SUSPEND, MemorySegment.NULL));
            assertEquals("ioctl VHOST_VDPA_SUSPEND", named.operation());
            assertEquals(Errno.ENOTTY, named.errno(), "a pipe knows no vhost ioctl");
            SyscallException plain = assertThrows(SyscallException.class,
                    () -> new PanamaSyscalls().ioctl(p[0], SUSPEND, MemorySegment.NULL));
            assertEquals("ioctl 0x0000AF7D", plain.operation());
        } finally {
            new PanamaSyscalls().close(p[0]);
            new PanamaSyscalls().close(p[1]);
        }
    }
}
