package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.lane.qemu.QemuClient;
import org.vdpactl.lane.qemu.QemuUnderTest;
import org.vdpactl.lane.qemu.SimulatorDevice;
import org.vdpactl.lane.qemu.VirtioPciGuestDriver;
import org.vdpactl.mgmt.Iproute2Vdpa;

/**
 * vdpactl next to a running QEMU, as an operator would try it in the real-kernel lane, once per QEMU the
 * lane has (Debian 12's 7.2 and bookworm-backports' 10.0: {@link QemuClient}): QEMU
 * holds a vdpa_sim device's /dev/vhost-vdpa-N with its vhost device started (the guest driver
 * played over qtest up to DRIVER_OK, the VM running), and vdpactl's CLI runs next to it.
 * Every command that would open the node gets the kernel's EBUSY from vhost_vdpa_open (which
 * refuses before it resets anything), names QEMU by pid and program (found through /proc) and
 * exits with its code from README's table; {@code dev del} refuses rather than letting the kernel's
 * delete block, and with --wait (run in a JVM of its own, as an operator would, while the test makes
 * QEMU quit) says on stderr that it waits for QEMU and deletes the device once QEMU has quit. Afterwards QEMU's device still runs: the guest reads DRIVER_OK, the kernel still
 * reports the features QEMU negotiated (a reset would clear them), and QMP stop/cont still work.
 */
@Tag("kernel")
class CliNextToQemuKernelTest {
    @TempDir
    Path dir;

    /** Each step's time since the test began, in the lane's target/ (a slow or stuck lane run shows where it is). */
    private static final Path PROGRESS = Path.of("target", "cli-next-to-qemu.log");
    private final long began = System.nanoTime();

    private void step(String what) throws Exception {
        Files.createDirectories(PROGRESS.getParent());
        Files.writeString(PROGRESS, String.format("%7.1f s %s%n", (System.nanoTime() - began) / 1e9, what),
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /**
     * A command run in the test's JVM (Main's own entry point, a process other than QEMU's, so the
     * /proc scan is the operator's): a separate JVM per command cost minutes in the TCG lane guest.
     */
    private CliRun kernelCli(String... args) throws Exception {
        CliRun r = CliRun.of(withKernelBackend(args));
        step(String.join(" ", args) + ": exit " + r.exitCode());
        return r;
    }

    private static String[] withKernelBackend(String... args) {
        List<String> full = new ArrayList<>(List.of("--backend", "kernel"));
        full.addAll(List.of(args));
        return full.toArray(String[]::new);
    }

    /** The driver features the kernel reports for the device: present only while FEATURES_OK is set (vdpa_dev_net_config_fill). */
    private static JsonNode negotiatedFeatures(String name) throws Exception {
        return Iproute2Vdpa.json("dev", "config", "show", name).path("config").path(name).path("negotiated_features");
    }

    private static void assertRefused(CliRun r, int exit, String holder, String what) {
        assertEquals(exit, r.exitCode(), what + ": " + r.err() + r.out());
        assertTrue(r.err().contains(holder), what + " names the holder (" + holder + "): " + r.err());
        assertTrue(r.noStackTrace(), what + ": " + r.err());
        assertEquals(1, r.errorLines(), what + ": one error line: " + r.err());
    }

    /** The host's QEMU 7.2 and the lane's second QEMU (10.0) when scripts/vm-lane set it up. */
    static List<QemuClient> clients() {
        return QemuClient.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void everyCommandNamesQemuAndLeavesItsDeviceRunningAndDevDelWaitsForItToQuit(QemuClient client) throws Exception {
        Files.deleteIfExists(PROGRESS);
        step("QEMU " + client.version());
        try (SimulatorDevice dev = SimulatorDevice.add("vdpa-held", "02:00:00:00:00:71");
             QemuUnderTest q = QemuUnderTest.start(client, dir, "held", QemuUnderTest.vhostVdpaNetdev(dev.node(), false), false)) {
            step("QEMU started on " + dev.node());
            VirtioPciGuestDriver guest = new VirtioPciGuestDriver(q.qtest());
            guest.find(0x1041);
            guest.map();
            guest.negotiate();
            guest.driverOk();
            q.qmp().execute("cont", null); // virtio-net starts its vhost device only while the VM runs
            JsonNode negotiated = negotiatedFeatures(dev.name());
            assertFalse(negotiated.isMissingNode() || negotiated.isEmpty(), "QEMU negotiated features on " + dev.name());
            // every command names QEMU with the user it runs as (getpwuid), this test's user
            String holder = "held open by pid " + q.pid() + " (qemu-system-x86_64, user " + System.getProperty("user.name") + ")";
            step("DRIVER_OK, running");

            assertRefused(kernelCli("vhost", "info", dev.name()), ExitCode.KERNEL_ERROR.code(), holder, "vhost info");
            assertRefused(kernelCli("vhost", "suspend", dev.name()), ExitCode.KERNEL_ERROR.code(), holder, "vhost suspend");
            // a rehearsal reports per device on stdout: the failed open ends the set-up, exit PARTIAL (README's table)
            CliRun rehearse = kernelCli("rehearse", dev.name(), "--memory", "64M");
            assertEquals(ExitCode.PARTIAL.code(), rehearse.exitCode(), rehearse.err() + rehearse.out());
            assertTrue(rehearse.out().contains(holder), "rehearse names the holder: " + rehearse.out());
            assertTrue(rehearse.noStackTrace(), rehearse.err());
            CliRun del = kernelCli("dev", "del", dev.name());
            // dev del also names the holder's user (getpwuid: "(qemu-system-x86_64, user root)")
            assertRefused(del, ExitCode.KERNEL_ERROR.code(), "is held open by pid " + q.pid()
                    + " (qemu-system-x86_64, user " + System.getProperty("user.name") + ")", "dev del");
            assertTrue(del.err().contains("(the kernel's delete would wait until it is closed)"), del.err());
            // a node held by a VMM is a warning, not a blocking problem: the host stays READY
            CliRun doctor = kernelCli("doctor");
            assertEquals(ExitCode.OK.code(), doctor.exitCode(), doctor.err() + doctor.out());
            // the detail may wrap at a space onto an indented line: compared with white space as single spaces
            assertTrue(doctor.out().replaceAll("\\s+", " ").contains("held open by another process: pid " + q.pid() + " (qemu-system-x86_64, user "
                    + System.getProperty("user.name") + ")"),
                    "doctor: " + doctor.out());

            step("refusals checked");

            // nothing of that disturbed QEMU's device
            assertTrue(Files.exists(Path.of(dev.node())), "the device is still there");
            assertTrue((guest.status() & VirtioPciGuestDriver.STATUS_DRIVER_OK) != 0, "the guest's device still runs");
            assertEquals(negotiated, negotiatedFeatures(dev.name()), "the kernel's device keeps QEMU's features (no reset)");
            assertEquals("running", q.qmp().execute("query-status", null).get("status").asText());
            q.qmp().execute("stop", null);
            assertEquals("paused", q.qmp().execute("query-status", null).get("status").asText());
            q.qmp().execute("cont", null);
            assertEquals("running", q.qmp().execute("query-status", null).get("status").asText());
            assertTrue((guest.status() & VirtioPciGuestDriver.STATUS_DRIVER_OK) != 0, "the guest's device runs again");
            assertEquals(negotiated, negotiatedFeatures(dev.name()), "QEMU's features after stop/cont");

            // dev del --wait: says whom it waits for while QEMU runs, and deletes the device once QEMU has quit
            CliProcess waiting = CliProcess.start(dir, "del-wait", withKernelBackend("dev", "del", dev.name(), "--wait", "600"));
            // QEMU runs as this test's user, whom dev del names beside the program (getpwuid)
            String line = "vdpactl: " + dev.name() + ": " + dev.node() + " is held open by pid " + q.pid()
                    + " (qemu-system-x86_64, user " + System.getProperty("user.name") + ")"
                    + "; the kernel's delete waits until it is closed: waiting up to 600 s";
            waiting.awaitErr(line, 5, TimeUnit.MINUTES);
            step("dev del --wait (a JVM of its own) says it waits");
            assertTrue(Files.exists(Path.of("/sys/bus/vdpa/devices", dev.name())), "not deleted while QEMU holds it");
            assertEquals("running", q.qmp().execute("query-status", null).get("status").asText());
            q.close(); // QMP quit: QEMU closes the node
            CliRun deleted = waiting.await(2, TimeUnit.MINUTES);
            step("QEMU quit; dev del --wait: exit " + deleted.exitCode());
            assertEquals(ExitCode.OK.code(), deleted.exitCode(), deleted.err());
            assertTrue(deleted.noStackTrace(), deleted.err());
            assertFalse(Files.exists(Path.of("/sys/bus/vdpa/devices", dev.name())), "dev del --wait deleted the device");
        }
    }
}
