package org.vdpactl.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** RLIMIT_MEMLOCK from /proc/PID/limits: numbers, "unlimited", and this process's own limit. */
class MemlockLimitTest {
    private static final String HEADER = "Limit                     Soft Limit           Hard Limit           Units     \n"
            + "Max open files            1024                 524288               files     \n";

    @Test
    void numbersAreBytesSoftThenHard() {
        assertEquals(Optional.of(new MemlockLimit(65536, 8388608)), MemlockLimit.parse(HEADER
                + "Max locked memory         65536                8388608              bytes     \n"
                + "Max address space         unlimited            unlimited            bytes     \n"));
    }

    @Test
    void unlimitedIsMinusOne() {
        MemlockLimit l = MemlockLimit.parse(HEADER + "Max locked memory         8388608              unlimited            bytes     \n").orElseThrow();
        assertEquals(new MemlockLimit(8388608, MemlockLimit.UNLIMITED), l);
        assertEquals("soft 8 MiB (8388608 bytes), hard unlimited", l.describe());
        assertEquals(new MemlockLimit(-1, -1), MemlockLimit.parse("Max locked memory unlimited unlimited bytes").orElseThrow());
    }

    @Test
    void aTextWithoutTheRowOrWithAGarbledOneSaysNothing() {
        assertEquals(Optional.empty(), MemlockLimit.parse(HEADER));
        assertEquals(Optional.empty(), MemlockLimit.parse("Max locked memory         lots                 8388608              bytes"));
        assertEquals(Optional.empty(), MemlockLimit.parse("Max locked memory"));
    }

    @Test
    void thisProcessesLimitIsWhatAChildShellsUlimitSays() throws IOException, InterruptedException {
        MemlockLimit l = MemlockLimit.current().orElseThrow();
        // the child inherits the limit; ulimit -l speaks KiB or "unlimited"
        Process p = new ProcessBuilder("sh", "-c", "ulimit -l").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(out.equals("unlimited") ? MemlockLimit.UNLIMITED : Long.parseLong(out) * 1024, l.soft());
    }
}
