package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.testsupport.SeparateJvm;

/** Data that cannot be written to stdout (/dev/full) is a failure with one line, not exit 0 with the data lost. */
class StdoutWriteErrorTest {
    @TempDir
    Path dir;

    private void assertLost(String... args) throws Exception {
        Path err = dir.resolve("err");
        Process p = SeparateJvm.start(Main.class, Map.of(), Path.of("/dev/full"), err, args);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        String stderr = Files.readString(err);
        assertEquals(ExitCode.NOT_READY.code(), p.exitValue(), stderr);
        assertTrue(stderr.contains("vdpactl: cannot write standard output"), stderr);
    }

    @Test
    void aListingToAFullDeviceFails() throws Exception {
        assertLost("--backend", "fake", "--fake-state", dir.resolve("s.json").toString(), "dev", "list");
    }

    @Test
    void aRehearsalDocumentToAFullDeviceFails() throws Exception {
        assertLost("--backend", "fake", "--fake-clock", "virtual", "--fake-state", dir.resolve("s.json").toString(), "--json",
                "rehearse", "--devices", "1");
    }
}
