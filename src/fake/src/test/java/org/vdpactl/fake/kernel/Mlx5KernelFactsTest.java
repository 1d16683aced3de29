package org.vdpactl.fake.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.device.FakeMgmtDevice;
import org.vdpactl.fake.state.Inventory;

/** The per-kernel mlx5_vdpa facts and the preset each kernel profile brings (issues 27 and 28). */
class Mlx5KernelFactsTest {

    @Test
    void everyProfileHasMlx5FactsWithASourceForEachFact() {
        for (KernelProfile k : KernelProfiles.all()) {
            Mlx5KernelFacts f = Mlx5KernelFacts.forKernel(k.version()).orElseThrow();
            assertEquals(k.version(), f.kernel());
            for (String fact : Mlx5KernelFacts.factNames()) {
                assertEquals(true, f.sources().containsKey(fact), k + ": " + fact);
            }
        }
        assertEquals(List.of("mlx5-61", "mlx5-612", "mlx5-612"),
                KernelProfiles.all().stream().map(k -> Mlx5KernelFacts.forKernel(k.version()).orElseThrow().preset()).toList());
    }

    @Test
    void aPresetNamedByTheInventoryWinsOverTheKernelProfiles() {
        Inventory inv = new Inventory(List.of(new Inventory.Mgmt("mlx5", "pci", "0000:08:00.2", null),
                new Inventory.Mgmt("mlx5", "pci", "0000:08:00.3", "mlx5-612")), List.of());
        try (FakeKernel k = FakeInside.inventory(FakeKernel.builder().kernel("6.1"), inv).build()) {
            FakeMgmtDevice defaulted = FakeInside.bus(k).fakeManagementDevice("pci", "0000:08:00.2").orElseThrow();
            FakeMgmtDevice named = FakeInside.bus(k).fakeManagementDevice("pci", "0000:08:00.3").orElseThrow();
            assertEquals("mlx5-61", defaulted.preset());
            assertEquals("the 6.1 kernel profile's mlx5_vdpa", defaulted.presetReason());
            assertEquals("mlx5-612", named.preset());
            assertEquals("named by the inventory", named.presetReason());
            // what a saved state keeps: the named preset only, so the defaulted one follows the next kernel profile
            assertEquals(List.of("null", "mlx5-612"),
                    FakeInside.inventory(k).mgmtdevs().stream().map(m -> String.valueOf(m.preset())).toList());
            assertNull(defaulted.namedPreset());
        }
    }
}
