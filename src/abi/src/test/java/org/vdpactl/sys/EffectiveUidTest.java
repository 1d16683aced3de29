package org.vdpactl.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The effective uid from /proc/PID/status: the second of the four "Uid:" fields. */
class EffectiveUidTest {
    @TempDir
    Path dir;

    @Test
    void theSecondUidFieldIsTheEffectiveOne() {
        // a set-uid-root program started by uid 1000: real 1000, effective 0, saved 0, filesystem 0
        assertEquals(OptionalInt.of(0), EffectiveUid.parse("Name:\tvdpactl\nUmask:\t0022\nUid:\t1000\t0\t0\t0\nGid:\t100\t100\t100\t100\n"));
        assertEquals(OptionalInt.of(1000), EffectiveUid.parse("Uid:\t0\t1000\t1000\t1000\n"));
    }

    @Test
    void aStatusWithoutAWellFormedUidLineSaysNothing() {
        assertEquals(OptionalInt.empty(), EffectiveUid.parse("Name:\tvdpactl\nGid:\t0\t0\t0\t0\n"));
        assertEquals(OptionalInt.empty(), EffectiveUid.parse("Uid:\t0\n"));
        assertEquals(OptionalInt.empty(), EffectiveUid.in(dir));
    }

    @Test
    void thisProcessesEffectiveUidOwnsWhatItCreatesAndIsWhatIdSays() throws IOException, InterruptedException {
        int uid = EffectiveUid.current().orElseThrow();
        assertEquals(uid, Files.getAttribute(Files.createFile(dir.resolve("mine")), "unix:uid"));
        Process p = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        p.waitFor(30, TimeUnit.SECONDS);
        assertEquals(String.valueOf(uid), out);
    }
}
