package org.vdpactl.fake.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.bus.Provisioning;
import org.vdpactl.fake.kernel.Mlx5KernelFacts;
import org.vdpactl.fake.state.Inventory;

/**
 * The fake's devices run their own driver's vdpa_config_ops (issue 35, "Structure"): each device gets the ops
 * of the driver its management device belongs to, with that kernel's facts; no ops class cites a function of
 * another driver; the generic device names no driver's ops; and the old per-state flags type is gone.
 */
class DriverOpsTest {
    private static final Path DEVICE = Path.of("src", "fake", "src", "main", "java", "org", "vdpactl", "fake", "device");

    @Test
    void everyDeviceRunsItsOwnDriversOpsWithItsKernelsFacts() {
        for (KernelProfile k : KernelProfiles.all()) {
            Inventory inv = new Inventory(List.of(new Inventory.Mgmt("mlx5", "pci", "0000:08:00.2", null),
                    new Inventory.Mgmt("vdpasim_net", null, "vdpasim_net", null),
                    new Inventory.Mgmt("vdpasim_blk", null, "vdpasim_blk", null)), List.of());
            try (FakeKernel kernel = FakeInside.inventory(FakeKernel.builder().kernel(k.version()), inv).build()) {
                Map<String, String> drivers = new TreeMap<>();
                for (String mgmt : List.of("pci/0000:08:00.2", "vdpasim_net", "vdpasim_blk")) {
                    FakeVdpaDevice d = FakeInside.addDevice(kernel, mgmt, "d-" + mgmt.replace('/', '-').replace(':', '-'),
                            Provisioning.NONE);
                    drivers.put(mgmt, d.ops().driver());
                    if (d.ops() instanceof Mlx5VnetOps m) {
                        assertEquals(Mlx5KernelFacts.forKernel(k.version()).orElseThrow().rules(), m.facts(), k.version());
                    } else {
                        assertTrue(d.ops() instanceof VdpaSimOps, mgmt + " on " + k.version());
                    }
                }
                assertEquals(Map.of("pci/0000:08:00.2", "mlx5_vnet", "vdpasim_net", "vdpa_sim",
                        "vdpasim_blk", "vdpa_sim"), drivers, k.version());
            }
        }
    }

    @Test
    void noOpsClassCitesAnotherDriversFunction() throws IOException {
        String sim = Files.readString(DEVICE.resolve("VdpaSimOps.java"));
        String mlx5 = Files.readString(DEVICE.resolve("Mlx5VnetOps.java"));
        assertFalse(sim.contains("mlx5_"), "VdpaSimOps cites an mlx5 function");
        assertFalse(mlx5.contains("vdpasim_"), "Mlx5VnetOps cites a vdpa_sim function");
        for (String[] c : List.of(new String[] {"VdpaSimOps", sim, "vdpasim_"}, new String[] {"Mlx5VnetOps", mlx5, "mlx5_"})) {
            // every op the class implements says which of its driver's functions it mirrors
            String[] parts = c[1].split("@Override");
            for (int i = 1; i < parts.length; i++) {
                String before = parts[i - 1];
                String doc = before.substring(Math.max(0, before.lastIndexOf("/**")));
                String method = parts[i].strip().lines().findFirst().orElse("");
                if (method.contains(" driver()")) {
                    continue;
                }
                assertTrue(before.strip().endsWith("*/") && doc.contains(c[2]), c[0] + "." + method + " cites no " + c[2] + " function");
            }
        }
    }

    @Test
    void theGenericDeviceNamesNoDriversOpsAndTheFlagsAreGone() throws IOException {
        String code = Files.readString(DEVICE.resolve("FakeVdpaDevice.java"))
                .replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
        for (String driverType : List.of("Mlx5VnetOps", "Mlx5VnetFacts", "Mlx5ControlVq", "mlx5Cvq")) {
            assertFalse(code.contains(driverType), "FakeVdpaDevice uses " + driverType);
        }
        // what an op costs is its driver's decision: the generic device calls no op of the latency model itself,
        // only asks it which ops the driver keeps (mlx5v_probe drops .resume and .get_vq_desc_group per FW)
        List<String> modelCalls = Pattern.compile("model\\.(\\w+)\\(").matcher(code).results()
                .map(r -> r.group(1)).distinct().sorted().toList();
        assertEquals(List.of("hasDescGroupOp", "hasResumeOp"), modelCalls, "FakeVdpaDevice charges ops itself");
        String cvq = Files.readString(DEVICE.resolve("ControlQueueDatapath.java"))
                .replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
        for (String driverType : List.of("Mlx5", "mlx5", "VdpaSimOps")) {
            assertFalse(cvq.contains(driverType), "ControlQueueDatapath has a branch for " + driverType);
        }
        assertThrows(ClassNotFoundException.class,
                () -> Class.forName("org.vdpactl.fake.device.DeviceProfile$DriverRules"));
        assertTrue(List.of(DeviceProfile.Device.class.getRecordComponents()).stream()
                .noneMatch(c -> c.getName().equals("rules")));
    }
}
