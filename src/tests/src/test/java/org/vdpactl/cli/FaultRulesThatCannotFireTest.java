package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fault rule on a driver op that the devices it names never see (dma_map on vdpa_sim and mlx5_vdpa, which map with
 * set_map; resume on the 6.1 profile, whose vdpa_config_ops has none) was accepted and never fired, so a fault run
 * passed as a clean one: it is refused in one line naming the devices and their drivers, exit 2.
 */
class FaultRulesThatCannotFireTest {
    @TempDir
    Path dir;

    private Path rules(String json) throws IOException {
        return Files.writeString(dir.resolve("faults-" + Integer.toHexString(json.hashCode()) + ".json"), json);
    }

    private CliRun withFaults(String json, String... args) throws IOException {
        String[] full = new String[args.length + 2];
        full[0] = "--fake-faults";
        full[1] = rules(json).toString();
        System.arraycopy(args, 0, full, 2, args.length);
        return CliRun.onVirtualFake(dir.resolve("state.json"), full);
    }

    @Test
    void dmaMapOnASetMapDriverIsRefusedNamingTheDeviceAndItsDriver() throws IOException {
        CliRun r = withFaults("[{\"device\": \"vdpa0\", \"call\": \"dma_map\", \"errno\": \"EIO\"}]", "rehearse", "vdpa0");
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err());
        assertEquals(1, r.err().lines().count(), "one line: " + r.err());
        assertTrue(r.err().contains("rule #1 (device vdpa0, call dma_map) could never fire on the fake's Linux 6.12: "
                + "vdpa0 (vdpasim_net: its driver maps with set_map)"), r.err());
        assertTrue(r.noStackTrace(), r.err());
    }

    @Test
    void aGlobIsRefusedOnlyWhenNoDeviceItNamesCallsTheOp() throws IOException {
        CliRun unmap = withFaults("[{\"device\": \"*\", \"call\": \"dma_unmap\", \"delay_ms\": 5}]", "dev", "list");
        assertEquals(ExitCode.USAGE.code(), unmap.exitCode(), unmap.err());
        assertTrue(unmap.err().contains("call dma_unmap) could never fire"), unmap.err());
        assertTrue(unmap.err().contains("mlx5-0 (mlx5: its driver maps with set_map)"), unmap.err());
        // set_map is what these drivers call: the same rule on it is taken
        CliRun setMap = withFaults("[{\"device\": \"*\", \"call\": \"set_map\", \"delay_ms\": 5}]", "dev", "list");
        assertEquals(0, setMap.exitCode(), setMap.err());
    }

    @Test
    void anOpTheKernelProfileLacksIsRefusedOnThatKernelOnly() throws IOException {
        String resume = "[{\"device\": \"vdpa0\", \"call\": \"resume\", \"errno\": \"EIO\"}]";
        CliRun old = withFaults(resume, "--fake-kernel", "6.1", "dev", "list");
        assertEquals(ExitCode.USAGE.code(), old.exitCode(), old.err());
        assertTrue(old.err().contains("on the fake's Linux 6.1: vdpa0 (vdpasim_net: its driver has no resume op)"), old.err());
        CliRun current = withFaults(resume, "--fake-kernel", "6.12", "dev", "list");
        assertEquals(0, current.exitCode(), current.err());
    }

    /** bench orchestration builds its own fake kernels: --fake-faults (even a file of no rules at all) was ignored. */
    @Test
    void benchOrchestrationRefusesTheFakesOptionsItCannotHonour() throws IOException {
        CliRun r = withFaults("{\"regions\": []}", "--fake-kernel", "6.1", "bench", "orchestration", "--sizes", "1", "--repeat", "1",
                "--queue-pairs", "1", "--memory", "1G");
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err());
        assertEquals(1, r.err().lines().count(), "one line: " + r.err());
        assertTrue(r.err().contains("vdpactl: --fake-clock, --fake-faults, --fake-kernel have no effect on bench orchestration,"
                + " which builds its own fake kernels"), r.err());
    }

    @Test
    void aRuleNamingNoDeviceYetIsCheckedAgainstTheManagementDevicesDrivers() throws IOException {
        CliRun r = withFaults("[{\"device\": \"later\", \"call\": \"dma_map\", \"errno\": \"EIO\"}]", "dev", "list");
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains("no device is named later yet, and no management device's driver calls dma_map"), r.err());
    }
    /** Issue 35 item 7: a link rule changes the PCI function behind a device; on devices without one it never fires. */
    @Test
    void aLinkRuleOnDevicesWithoutAFunctionIsRefused() throws IOException {
        CliRun r = withFaults("[{\"device\": \"vdpa0\", \"call\": \"VHOST_VDPA_SUSPEND\", \"link\": \"down\"}]", "dev", "list");
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err());
        assertEquals(1, r.err().lines().count(), "one line: " + r.err());
        assertTrue(r.err().contains("rule #1 (device vdpa0, link down) could never change a link on the fake's Linux 6.12: "
                + "vdpa0 (vdpasim_net): no PCI function behind their driver"), r.err());
        assertTrue(r.noStackTrace(), r.err());
        CliRun later = withFaults("[{\"device\": \"later\", \"call\": \"suspend\", \"link\": \"up\"}]", "dev", "list");
        assertEquals(0, later.exitCode(), "a device added later may be on mlx5's function: " + later.err());
        CliRun mlx5 = withFaults("[{\"device\": \"*\", \"call\": \"VHOST_VDPA_SUSPEND\", \"link\": \"down\"}]", "dev", "list");
        assertEquals(0, mlx5.exitCode(), "mlx5-0 has a function: " + mlx5.err());
    }
}
