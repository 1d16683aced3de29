package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.fake.NodeHolderMain;

/**
 * What vdpactl says next to another OS process that holds /dev/vhost-vdpa-0 on the fake (a second
 * JVM, as QEMU would hold it on a kernel): every command that opens the node gets EBUSY, names the
 * holder by pid and program, exits with its documented code, and leaves the holder's node alone.
 */
class HeldNodeTwoProcessesTest {
    @TempDir
    Path dir;
    private HeldFakeState held;
    private Process holder;
    private String holderName;
    /** How dev del names the holder (as every other command now). */
    private String delHolderName;

    private Path state() {
        return held.state();
    }

    @BeforeEach
    void holdNode() throws Exception {
        held = HeldFakeState.start(dir, NodeHolderMain.class, "open", "/dev/vhost-vdpa-0");
        holder = held.holder();
        // every command names the holder with the user it runs as (getpwuid): the library's open error path as the CLI
        // renders it, the rehearsal's report, doctor and dev del alike
        holderName = held.holderName();
        delHolderName = holderName;
    }

    @AfterEach
    void release() throws Exception {
        held.close();
    }

    private CliRun run(String... args) {
        return RehearseCommandTest.run(held.onFake(args));
    }

    private void assertRefused(CliRun r, int exit, String what) {
        assertEquals(exit, r.exitCode(), what + ": " + r.err() + r.out());
        assertTrue(r.err().contains("held open by " + (what.startsWith("dev del") ? delHolderName : holderName)),
                what + " names the holder: " + r.err());
        assertTrue(r.noStackTrace(), r.err());
        assertEquals(1, r.errorLines(), what + ": one error line: " + r.err());
    }

    @Test
    void everyCommandThatOpensTheNodeNamesTheHolderAndExitsWithItsCode() {
        assertRefused(run("vhost", "info", "vdpa0"), ExitCode.KERNEL_ERROR.code(), "vhost info");
        assertRefused(run("vhost", "suspend", "vdpa0"), ExitCode.KERNEL_ERROR.code(), "vhost suspend");
        assertRefused(run("vhost", "resume", "vdpa0"), ExitCode.KERNEL_ERROR.code(), "vhost resume");
        // --premap's pre-flight opens the node before any set-up
        assertRefused(run("rehearse", "vdpa0", "--premap", "--memory", "64M"), ExitCode.KERNEL_ERROR.code(), "rehearse --premap");
        // a rehearsal reports per device on stdout: the failed open ends the set-up, exit PARTIAL (README's table)
        CliRun rehearse = run("rehearse", "vdpa0", "--memory", "64M");
        assertEquals(ExitCode.PARTIAL.code(), rehearse.exitCode(), rehearse.err() + rehearse.out());
        assertTrue(rehearse.out().contains("held open by " + holderName), "rehearse names the holder: " + rehearse.out());
        assertTrue(rehearse.noStackTrace(), rehearse.err());
        // the same when the held node is a rehearsal's destination (the source is another device)
        CliRun toHeld = run("rehearse", "mlx5-0", "--dest", "vdpa0", "--memory", "64M");
        assertEquals(ExitCode.PARTIAL.code(), toHeld.exitCode(), toHeld.err() + toHeld.out());
        assertTrue(toHeld.out().contains("held open by " + holderName), "rehearse --dest names the holder: " + toHeld.out());
        assertTrue(toHeld.noStackTrace(), toHeld.err());
        assertRefused(run("dev", "del", "vdpa0"), ExitCode.KERNEL_ERROR.code(), "dev del");
        CliRun waited = run("dev", "del", "vdpa0", "--wait", "1");
        assertEquals(ExitCode.KERNEL_ERROR.code(), waited.exitCode(), waited.err());
        assertTrue(waited.err().contains("vdpactl: vdpa0: /dev/vhost-vdpa-0 is held open by " + delHolderName
                + "; the kernel's delete waits until it is closed: waiting up to 1 s"), "says whom it waits for: " + waited.err());
        assertTrue(waited.err().contains("is held open by " + delHolderName + " after 1 s (the kernel's delete would wait"),
                "gives up naming the holder: " + waited.err());
        // after --wait 1 the hint is a longer wait, not the option just given
        assertTrue(waited.err().contains("close it first, or give a longer --wait") && !waited.err().contains("pass --wait"),
                waited.err());
        assertTrue(waited.noStackTrace(), waited.err());
        CliRun doctor = run("doctor");
        // the detail may wrap at a space onto an indented line: compared with white space as single spaces
        assertTrue(doctor.out().replaceAll("\\s+", " ").contains("held open by another process: " + holderName), "doctor: " + doctor.out());
        // nothing vdpactl did took the node away from its holder, nor deleted the device
        assertTrue(holder.isAlive());
        assertTrue(run("dev", "list").out().contains("vdpa0"));
    }

    /**
     * SIGTERM while {@code dev del --wait} waits for the holder: it exited 143 with no word (the JVM's default); now it
     * stops waiting, says so, deletes nothing and exits INTERRUPTED. The handler is in place before the waiting line is
     * printed, so the signal is sent once that line is there: no timing.
     */
    @Test
    void sigtermEndsADevDelWaitWithOneLineAndItsCode() throws Exception {
        CliProcess del = CliProcess.start(dir, "del-term", "--backend", "fake", "--fake-state", state().toString(),
                "dev", "del", "vdpa0", "--wait", "300");
        del.awaitErr("waiting up to 300 s", 2, TimeUnit.MINUTES);
        del.signal("TERM");
        CliRun r = del.await(2, TimeUnit.MINUTES);
        assertEquals(ExitCode.INTERRUPTED.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains("vdpactl: interrupted by SIGTERM while waiting for /dev/vhost-vdpa-0 to be closed; vdpa0 was not"
                + " deleted"), r.err());
        assertTrue(r.noStackTrace(), r.err());
        assertTrue(run("dev", "list").out().contains("vdpa0"), "nothing deleted");
    }

    /**
     * {@code dev del --wait} in a process of its own next to the holder: it says on stderr whom it
     * waits for, deletes nothing while the node is held, and deletes the device once the holder
     * has closed the node (as QEMU does when it quits).
     */
    @Test
    void devDelWaitSaysWhomItWaitsForAndDeletesOnceTheHolderClosesTheNode() throws Exception {
        CliProcess del = CliProcess.start(dir, "del-wait", "--backend", "fake", "--fake-state", state().toString(),
                "dev", "del", "vdpa0", "--wait", "300");
        String line = "vdpactl: vdpa0: /dev/vhost-vdpa-0 is held open by " + delHolderName
                + "; the kernel's delete waits until it is closed: waiting up to 300 s";
        del.awaitErr(line, 2, TimeUnit.MINUTES);
        assertTrue(run("dev", "list").out().contains("vdpa0"), "nothing deleted while the node is held");
        holder.getOutputStream().close(); // the holder closes the node and ends
        assertTrue(holder.waitFor(5, TimeUnit.MINUTES));
        CliRun deleted = del.await(5, TimeUnit.MINUTES);
        assertEquals(0, deleted.exitCode(), deleted.err());
        assertTrue(deleted.noStackTrace(), deleted.err());
        assertFalse(run("dev", "list").out().contains("vdpa0"), "deleted once the holder closed the node");
    }
}
