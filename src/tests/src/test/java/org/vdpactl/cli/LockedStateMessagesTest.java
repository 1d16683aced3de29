package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.fake.state.LockHolderMain;

/**
 * What vdpactl says while another program holds the fake state's lock (a second JVM that keeps it, idle, past the
 * timeout): the reason on stderr, naming the holder with its user, after one wait. A rehearsal said only "open
 * /dev/vhost-vdpa-N (setup) failed: error" on stderr (the reason on stdout), and every command waited for the same
 * holder twice (the failed open, then the close of its kernel). Each command here runs in a process of its own.
 */
class LockedStateMessagesTest {
    private static final String WAITING = "waiting for the fake kernel state lock";

    @TempDir
    Path dir;
    private HeldFakeState held;
    private String holderName;

    @BeforeEach
    void holdTheLock() throws Exception {
        held = HeldFakeState.start(dir, LockHolderMain.class, "locked", "600000", "sleep");
        holderName = held.holderName();
    }

    @AfterEach
    void release() throws Exception {
        held.close();
    }

    private CliRun cli(String label, String... args) throws Exception {
        return CliProcess.start(dir, label, held.onFake(args)).await(5, TimeUnit.MINUTES);
    }

    private static long count(String text, String part) {
        return text.lines().filter(l -> l.contains(part)).count();
    }

    /** The rehearsal's set-up stops at the open whose record cannot be written: the reason is on stderr, after one wait. */
    @Test
    void aRehearsalSaysOnStderrThatTheStateIsLockedAndByWhom() throws Exception {
        CliRun r = cli("rehearse", "rehearse", "vdpa0", "--memory", "64M");
        assertEquals(ExitCode.PARTIAL.code(), r.exitCode(), r.err() + r.out());
        assertTrue(r.err().contains("vdpa0: open /dev/vhost-vdpa-0 (setup) failed: fake kernel state "), r.err());
        assertTrue(r.err().contains("is in use by another vdpactl process: " + holderName + " has held the lock"), r.err());
        assertTrue(!r.err().contains("failed: error"), r.err());
        assertEquals(1, count(r.err(), WAITING), "one wait for one holder: " + r.err());
        assertTrue(r.noStackTrace(), r.err());
    }

    /**
     * A command that records its open (vhost suspend) waited for the same holder twice, 10 s at the open and 10 s more
     * when its kernel closed; now once, then says why. (Read-only commands such as vhost info, dev list, doctor and
     * migrate facts do not wait for the lock at all: checked on the unchanged tree, none waited.)
     */
    @Test
    void aCommandWaitsOnceForAHolderAndNamesIt() throws Exception {
        CliRun r = cli("suspend", "vhost", "suspend", "mlx5-0");
        assertEquals(ExitCode.NOT_READY.code(), r.exitCode(), r.err() + r.out());
        assertEquals(1, count(r.err(), WAITING), "one wait for one holder: " + r.err());
        assertTrue(r.err().contains("[WARN] " + WAITING + " ") && r.err().contains(" held by " + holderName), r.err());
        assertTrue(r.err().contains("vdpactl: fake kernel state ") && r.err().contains(holderName + " has held the lock"), r.err());
        assertEquals(1, r.errorLines(), r.err());
        assertTrue(r.noStackTrace(), r.err());
    }
}
