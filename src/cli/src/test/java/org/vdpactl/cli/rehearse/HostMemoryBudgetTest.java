package org.vdpactl.cli.rehearse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;

class HostMemoryBudgetTest {
    private static final long GIB = 1L << 30;

    /** A seam that only answers reads of /proc/meminfo. */
    private static Syscalls meminfo(String text) {
        return (Syscalls) Proxy.newProxyInstance(Syscalls.class.getClassLoader(), new Class<?>[] {Syscalls.class}, (p, m, a) -> {
            if (m.getName().equals("readSmallFile") && "/proc/meminfo".equals(a[0]) && text != null) {
                return text.getBytes(StandardCharsets.US_ASCII);
            }
            throw new SyscallException(m.getName(), Errno.ENOENT);
        });
    }

    @Test
    void cutsToHalfOfMemAvailableAndSaysSo() {
        GuestMemoryLayout asked = GuestMemoryLayout.of(256 * GIB, GIB, 4096, true);
        HostMemoryBudget.Reduced r = HostMemoryBudget.fit(meminfo("MemTotal: 16000000 kB\nMemAvailable:    8388608 kB\n"), asked);
        assertEquals(4 * GIB, r.layout().totalBytes());
        assertTrue(r.note().orElseThrow().contains("from 256 GiB to 4 GiB"), r.note().toString());
    }

    @Test
    void leavesWhatFitsAndWhatCannotBeKnownAlone() {
        GuestMemoryLayout asked = GuestMemoryLayout.of(4 * GIB, GIB, 4096, true);
        assertTrue(HostMemoryBudget.fit(meminfo("MemAvailable: 67108864 kB\n"), asked).note().isEmpty());
        assertEquals(asked, HostMemoryBudget.fit(meminfo(null), asked).layout());
    }
}
