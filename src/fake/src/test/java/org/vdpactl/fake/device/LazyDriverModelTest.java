package org.vdpactl.fake.device;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.mlx5.Mlx5Device;
import org.vdpactl.fake.state.Inventory;

/**
 * A device's latency model is made on its first use (issue 37, start-up): a command that only lists devices builds
 * none, while a bad preset is still refused when the devices are made, as before.
 */
class LazyDriverModelTest {
    @Test
    void anMlx5DevicesModelIsMadeOnFirstUseAndOnlyOnce() {
        try (FakeKernel k = FakeKernel.builder().build()) {
            FakeVdpaDevice d = FakeInside.device(k, "mlx5-0").orElseThrow();
            assertFalse(d.hasModel(), "the latency model was made with the device");
            assertTrue(d.model() instanceof Mlx5Device, "an mlx5 device's model is the mlx5 FW model");
            assertTrue(d.hasModel());
            assertSame(d.model(), d.model(), "the model was made twice");
        }
    }

    @Test
    void anUnknownPresetIsRefusedWhenTheDevicesAreMade() {
        Inventory inv = new Inventory(List.of(new Inventory.Mgmt("mlx5", "pci", "0000:08:00.2", "mlx5-none")),
                List.of(new Inventory.Device("m0", "pci/0000:08:00.2", null, null, null, null, null, null)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FakeInside.inventory(FakeKernel.builder(), inv).build().close());
        assertTrue(e.getMessage().startsWith("unknown mlx5 preset 'mlx5-none'"), e.getMessage());
    }
}
