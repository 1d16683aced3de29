package org.vdpactl.fake.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.ffi.gen.vhost.virtio_net_config;

/**
 * A net device's config space is laid out on its first use (issue 37, start-up: the generated layout class builds
 * its VarHandles when first used), and reads as it would have if laid out when the device was made.
 */
class LazyConfigSpaceTest {
    private static final ValueLayout.OfShort LE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @Test
    void aNetConfigIsLaidOutOnFirstReadWithWhatWasProvisioned() {
        DeviceProfile.Config rules = ProfileCatalog.load("vdpasim_net").device().config();
        byte[] mac = {2, 0, 0, 0, 0, 9};
        ConfigSpace c = ConfigSpace.net(rules, mac, 1400, 4, ConfigSpace.ALL_FIELDS);
        assertFalse(c.laidOut(), "the config space was laid out when the device was made");
        assertArrayEquals(new byte[] {2, 0, 0, 0, 0, 9}, c.mac());
        assertFalse(c.laidOut(), "asking the MAC laid the config space out");
        mac[5] = 7; // the caller's array is not the device's
        byte[] bytes = c.read();
        assertTrue(c.laidOut());
        assertEquals(rules.size(), bytes.length);
        MemorySegment s = MemorySegment.ofArray(bytes);
        assertArrayEquals(new byte[] {2, 0, 0, 0, 0, 9}, s.asSlice(virtio_net_config.mac$offset(), 6).toArray(ValueLayout.JAVA_BYTE));
        assertEquals(1400, s.get(LE16, virtio_net_config.mtu$offset()));
        assertEquals("pairs".equals(rules.maxVqPairsField()) ? 4 : 0, s.get(LE16, virtio_net_config.max_virtqueue_pairs$offset()));
        assertArrayEquals(new byte[] {2, 0, 0, 0, 0, 9}, c.mac());
    }

    @Test
    void whatTheDriverSetsBeforeTheLayoutIsInIt() {
        DeviceProfile.Config rules = ProfileCatalog.load("vdpasim_net").device().config();
        ConfigSpace c = ConfigSpace.net(rules, null, null, 1, ConfigSpace.ALL_FIELDS);
        c.setMtu(9000); // mlx5's dev add: the vport MTU, whatever the gate
        c.setMac(new byte[] {2, 1, 2, 3, 4, 5});
        assertFalse(c.laidOut(), "setting a field laid the config space out");
        assertArrayEquals(new byte[] {2, 1, 2, 3, 4, 5}, c.mac());
        MemorySegment s = MemorySegment.ofArray(c.read());
        assertEquals(9000, Short.toUnsignedInt(s.get(LE16, virtio_net_config.mtu$offset())));
        assertArrayEquals(new byte[] {2, 1, 2, 3, 4, 5}, s.asSlice(virtio_net_config.mac$offset(), 6).toArray(ValueLayout.JAVA_BYTE));
        c.setMtu(1280); // after the layout: into the bytes
        assertEquals(1280, MemorySegment.ofArray(c.read()).get(LE16, virtio_net_config.mtu$offset()));
    }

    @Test
    void makingAKernelAndTakingItsInventoryLaysOutNoConfigSpace() {
        try (FakeKernel k = FakeKernel.builder().build()) {
            // what a listing does: make the devices, then compare the inventory with the one read (FakeKernel.saveState)
            assertEquals("vdpa0", FakeInside.inventory(k).devices().getFirst().name());
            for (String name : new String[] {"vdpa0", "mlx5-0"}) {
                FakeVdpaDevice d = FakeInside.device(k, name).orElseThrow();
                assertFalse(d.config().laidOut(), "making the devices or taking the inventory laid out the config space of " + name);
            }
            assertArrayEquals(new byte[] {2, 0, 0, 0, 0, 1}, FakeInside.device(k, "vdpa0").orElseThrow().configMac());
        }
    }
}
