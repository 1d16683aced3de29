package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rehearsal's own threads taking turns at the fake's state lock (each device records its node's
 * open) is not something to warn about: "waiting for the fake kernel state lock … held by another
 * thread of this process" printed 35 times for 64 devices, teaching operators to ignore WARN.
 */
class SelfLockWaitQuietTest {
    @TempDir
    Path dir;

    @Test
    void aRehearsalOf64DevicesWarnsAboutNoLockItHoldsItself() throws Exception {
        Path state = ManyDevicesResourceLimitTest.stateWithMlx5Devices(dir.resolve("s.json"), 64);
        // its own JVM: the log lines go to the process's stderr
        CliRun r = CliProcess.start(dir, "rehearse", "--backend", "fake", "--fake-clock", "virtual", "--fake-state", state.toString(),
                "rehearse", "--devices", "64").await(120, TimeUnit.SECONDS);
        assertEquals(ExitCode.OK.code(), r.exitCode(), r.err());
        assertFalse(r.err().contains("held by another thread of this process"), r.err());
    }
}
