package org.vdpactl.fake.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.kernel.KernelDeviceProfiles;

/**
 * Which optional {@code vdpa_config_ops} a device has is declared once, by its driver's ops class (as the kernel's
 * ops initializer does), and cut to what its kernel's vdpa.h has: the device profiles carry no op flags, so a new
 * op is a name in the drivers that set it and in the kernel profiles, not a flag in every profile (issue 33).
 */
class DriverConfigOpsTest {
    private static final List<String> PROFILES = List.of("vdpasim_net", "vdpasim_blk", "mlx5");
    private static final String AFTER_DRIVER_OK = "VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK";

    @Test
    void theDeviceProfilesCarryNoOps() throws IOException {
        for (String name : PROFILES) {
            assertNull(ProfileCatalog.load(name).device().ops(), name + ": ops from the profile's JSON");
        }
        String json;
        try (InputStream in = ProfileCatalog.class.getResourceAsStream("/org/vdpactl/fake/profiles/vdpasim_net.json")) {
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String withOps = json.replace("\"vqNumMin\": 1,", "\"vqNumMin\": 1, \"ops\": {\"configOps\": [\"suspend\"], "
                + "\"deviceBackendFeatures\": [], \"initialMap\": \"identity\"},");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProfileCatalog.parse(
                withOps.getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("carries no ops"), e.getMessage());
    }

    /** What each driver has on each kernel: what the profiles' flags and the kernel filter gave before. */
    @Test
    void eachDriverHasTheOpsItDeclaresThatItsKernelHas() {
        Set<String> sim612 = Set.of("suspend", "resume", "reset_map", "set_map", "bind_mm", "get_backend_features");
        Set<String> mlx612 = Set.of("suspend", "resume", "reset_map", "set_map", "get_vq_notification", "get_backend_features");
        Map<String, Map<String, Set<String>>> expected = Map.of(
                "6.1", Map.of("vdpasim_net", Set.of("suspend", "set_map"), "vdpasim_blk", Set.of("suspend", "set_map"),
                        "mlx5", Set.of("suspend", "set_map", "get_vq_notification")),
                "6.12", Map.of("vdpasim_net", sim612, "vdpasim_blk", sim612, "mlx5", mlx612),
                "7.2", Map.of("vdpasim_net", sim612, "vdpasim_blk", sim612, "mlx5", mlx612));
        for (KernelProfile k : KernelProfiles.all()) {
            for (String name : PROFILES) {
                DeviceProfile.Ops ops = KernelDeviceProfiles.adapt(k, ProfileCatalog.load(name)).device().ops();
                String where = name + " on " + k.version();
                assertEquals(expected.get(k.version()).get(name), ops.configOps(), where);
                assertEquals(k.version().equals("6.1") ? List.of() : List.of(AFTER_DRIVER_OK), ops.backendFeatures(), where);
                assertEquals("set_map", ops.mapping(), where);
                assertEquals(name.equals("mlx5") ? "none" : "identity", ops.initialMap(), where);
            }
        }
    }

    @Test
    void aKernelWithoutAnOpTakesItFromEveryDriverAndAnOpNoProfileListsStays() {
        KernelProfile k = KernelProfiles.defaultProfile();
        KernelProfile noSuspend = new KernelProfile("test", List.of(), "test", k.vhost(),
                k.configOps().stream().filter(op -> !op.equals("suspend")).toList(), k.netlink(), k.drivers(), k.vduseClasses());
        for (String name : PROFILES) {
            DeviceProfile.Ops ops = KernelDeviceProfiles.adapt(noSuspend, ProfileCatalog.load(name)).device().ops();
            assertFalse(ops.has("suspend"), name);
            assertTrue(ops.has("resume") && ops.setMap(), name + ": " + ops.configOps());
        }
    }
}
