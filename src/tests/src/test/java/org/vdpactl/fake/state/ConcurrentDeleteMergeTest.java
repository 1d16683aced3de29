package org.vdpactl.fake.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Two vdpactl processes that both loaded a device and both deleted it: the kernel serialises DEV_DEL
 * under the vdpa lock and the second fails with ENODEV; the fake's merge of the second save said
 * nothing and both exited 0. (The exit code it maps to: cli/DeletedMeanwhileExitCodeTest.)
 */
class ConcurrentDeleteMergeTest {
    private static final Inventory.Mgmt SIM = new Inventory.Mgmt("vdpasim_net", null, "vdpasim_net", null);

    private static Inventory with(String... names) {
        List<Inventory.Device> d = IntStream.range(0, names.length)
                .mapToObj(i -> new Inventory.Device(names[i], "vdpasim_net", null, null, null, null, i, null)).toList();
        return new Inventory(List.of(SIM), d);
    }

    @Test
    void theSecondDeleteOfOneDeviceIsNoSuchDevice() {
        Inventory base = with("vdpa0", "x1");
        Inventory mine = with("vdpa0");
        Inventory disk = with("vdpa0"); // the other process's delete was saved first
        FakeStateStore.DeletedMeanwhileException e = assertThrows(FakeStateStore.DeletedMeanwhileException.class,
                () -> InventoryMerge.apply(disk, base, mine));
        assertTrue(e.getMessage().contains("x1") && e.getMessage().contains("ENODEV"), e.getMessage());
    }

    @Test
    void deletesOfDifferentDevicesBothApply() {
        Inventory base = with("vdpa0", "x1", "x2");
        Inventory disk = with("vdpa0", "x1"); // the other process deleted x2
        Inventory merged = InventoryMerge.apply(disk, base, with("vdpa0", "x2"));
        assertEquals(List.of("vdpa0"), merged.devices().stream().map(Inventory.Device::name).toList());
    }
}
