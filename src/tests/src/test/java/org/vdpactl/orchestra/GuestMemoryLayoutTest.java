package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.model.DriverModel;
import org.vdpactl.fake.vhost.VhostVdpaDriver;
import org.vdpactl.fake.model.MapEntry;

class GuestMemoryLayoutTest {
    private static final long GIB = 1L << 30;

    @Test
    void x86LayoutPutsTwoGibBelowFourAndTheRestAbove() {
        GuestMemoryLayout l = GuestMemoryLayout.of(256 * GIB, GIB, 4096, true);
        assertEquals(256, l.regions().size());
        assertEquals(256 * GIB, l.totalBytes());
        assertEquals(1, l.holes());
        assertEquals(0, l.regions().get(0).iova());
        assertEquals(GIB, l.regions().get(1).iova());
        assertEquals(4 * GIB, l.regions().get(2).iova());
        assertEquals(258 * GIB, l.endIova());
        assertEquals(2 * GIB, l.hostOffset(2), "regions sit back to back in host memory");
    }

    @Test
    void flatLayoutAndAShortLastRegion() {
        GuestMemoryLayout l = GuestMemoryLayout.of(5 * GIB / 2, GIB, 2L << 20, false);
        assertEquals(List.of(GIB, GIB, GIB / 2), l.regions().stream().map(GuestMemoryLayout.Region::size).toList());
        assertEquals(0, l.holes());
        assertEquals(2L << 20, l.smallestPageSize());
    }

    @Test
    void smallMemoryHasNoHole() {
        GuestMemoryLayout l = GuestMemoryLayout.of(GIB, GIB, 4096, true);
        assertEquals(1, l.regions().size());
        assertEquals(0, l.holes());
    }

    @Test
    void truncationKeepsLowRegionsAndPageAlignment() {
        GuestMemoryLayout l = GuestMemoryLayout.of(8 * GIB, GIB, 4096, true).truncatedTo(5 * GIB / 2 + 123);
        assertEquals(5 * GIB / 2, l.totalBytes());
        assertEquals(4 * GIB, l.regions().get(2).iova());
        assertEquals(GIB / 2, l.regions().get(2).size());
    }

    @Test
    void rejectsOverlapsMisalignmentAndEmptyLayouts() {
        assertThrows(IllegalArgumentException.class, () -> new GuestMemoryLayout(List.of()));
        assertThrows(IllegalArgumentException.class, () -> new GuestMemoryLayout(List.of(
                new GuestMemoryLayout.Region(0, 2 * GIB, 4096), new GuestMemoryLayout.Region(GIB, GIB, 4096))));
        assertThrows(IllegalArgumentException.class, () -> new GuestMemoryLayout.Region(4096, GIB, 2L << 20));
        assertThrows(IllegalArgumentException.class, () -> new GuestMemoryLayout.Region(0, GIB, 3000));
        assertThrows(IllegalArgumentException.class, () -> GuestMemoryLayout.of(GIB + 1, GIB, 4096, false));
    }

    @Test
    void pageSizeDecidesTheGranularityTheDeviceSeesThroughTheIotlb() {
        // 4 KiB pages: each GiB arrives as a 4 KiB run and the rest, as pinned fragmented memory would
        try (FakeRig rig = FakeRig.withModels(1, 1, i -> DriverModel.FREE)) {
            GuestMemoryLayout layout = GuestMemoryLayout.of(4 * GIB, GIB, 4096, true);
            RehearsalListener check = new RehearsalListener() {
                @Override
                public void beforeClose(List<DeviceReport> devices) {
                    List<MapEntry> table = VhostVdpaDriver.of(rig.kernel).vhost(FakeInside.device(rig.kernel, "mlx5-0").orElseThrow()).iotlbEntries(0);
                    assertEquals(8, table.size(), table.toString());
                    assertEquals(4 * GIB, table.stream().mapToLong(MapEntry::size).sum());
                    assertTrue(table.stream().anyMatch(e -> e.size() == 4096));
                    assertTrue(table.stream().allMatch(e -> e.size() == 4096 || e.size() == GIB - 4096));
                }
            };
            RehearsalResult r = rig.rehearsal().listener(check)
                    .run(RehearsalPlan.builder(rig.devices).memory(layout).queuePairs(1).build());
            assertTrue(r.completed());
        }
    }

    @Test
    void oneGibPagesMapEachRegionWhole() {
        try (FakeRig rig = FakeRig.withModels(1, 1, i -> DriverModel.FREE)) {
            GuestMemoryLayout layout = GuestMemoryLayout.of(4 * GIB, GIB, GIB, true);
            RehearsalListener check = new RehearsalListener() {
                @Override
                public void beforeClose(List<DeviceReport> devices) {
                    List<MapEntry> table = VhostVdpaDriver.of(rig.kernel).vhost(FakeInside.device(rig.kernel, "mlx5-0").orElseThrow()).iotlbEntries(0);
                    assertEquals(4, table.size());
                    assertTrue(table.stream().allMatch(e -> e.size() == GIB));
                }
            };
            assertTrue(rig.rehearsal().listener(check).run(RehearsalPlan.builder(rig.devices).memory(layout).queuePairs(1).build())
                    .completed());
        }
    }
}
