package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.device.DeviceProfile;
import org.vdpactl.fake.device.ProfileCatalog;
import org.vdpactl.fake.state.Inventory;

/**
 * vhost info shows a net config field only when the device's features make it valid (Linux 6.12's
 * vdpa_dev_net_config_fill, and the virtio spec for speed and duplex, which the kernel does not send): on the
 * fake's vdpasim_net (MAC, MTU, STATUS; no MQ, no SPEED_DUPLEX, no RSS) and on the same device offering
 * VIRTIO_NET_F_SPEED_DUPLEX.
 */
class VhostInfoValidConfigFieldsTest {

    /** vdpasim_net whose management device also supports VIRTIO_NET_F_SPEED_DUPLEX (its devices offer it). */
    private static DeviceProfile simWithSpeedDuplex() {
        DeviceProfile p = ProfileCatalog.load("vdpasim_net");
        List<String> features = new ArrayList<>(p.mgmtdev().supportedFeatures());
        features.add("VIRTIO_NET_F_SPEED_DUPLEX");
        DeviceProfile.Mgmt m = p.mgmtdev();
        return new DeviceProfile("speedsim", new DeviceProfile.Mgmt(null, "speedsim", m.classes(), m.maxSupportedVqs(),
                m.maxVqPairs(), features, m.provisionableAttributes(), 0, "free", null), p.device());
    }

    private static VhostInfo info(DeviceProfile profile) {
        Inventory inv = new Inventory(List.of(new Inventory.Mgmt(profile.name(), null, profile.mgmtdev().devName(), null)),
                List.of(new Inventory.Device("v0", profile.mgmtdev().devName(), "02:00:00:00:00:10", null, null, null, null, null)));
        try (FakeKernel k = FakeInside.inventory(FakeInside.profile(FakeKernel.builder(), profile), inv).build();
             FakeProcess p = k.newProcess();
             VhostVdpaDevice d = VhostVdpaDevice.open(p, "/dev/vhost-vdpa-0")) {
            return VhostInfo.collect(d);
        }
    }

    @Test
    void withoutSpeedDuplexNeitherSpeedNorDuplexIsShown() {
        VhostInfo info = info(ProfileCatalog.load("vdpasim_net"));
        assertFalse(info.featureNames().contains("VIRTIO_NET_F_SPEED_DUPLEX"), info.featureNames().toString());
        NetConfig c = (NetConfig) info.config();
        assertEquals("02:00:00:00:00:10", c.mac());
        assertEquals(1, c.status());
        assertEquals(1500, c.mtu());
        assertNull(c.speed());
        assertNull(c.duplex());
        assertNull(c.maxVirtqueuePairs(), "no F_MQ nor F_RSS: max_virtqueue_pairs is not valid");
        assertNull(c.rssMaxKeySize());
        assertNull(c.rssMaxIndirectionTableLength());
        assertNull(c.supportedHashTypes());
        String text = info.toText();
        assertFalse(text.contains("speed:") || text.contains("duplex:") || text.contains("max VQ pairs:") || text.contains("RSS"),
                text);
        assertTrue(text.contains("  MTU:"), text);
    }

    @Test
    void withSpeedDuplexBothAreShown() {
        VhostInfo info = info(simWithSpeedDuplex());
        assertTrue(info.featureNames().contains("VIRTIO_NET_F_SPEED_DUPLEX"), info.featureNames().toString());
        NetConfig c = (NetConfig) info.config();
        // vdpa_sim leaves the two fields zero: 0 Mbit/s, half duplex is what the device says
        assertEquals(0L, c.speed());
        assertEquals(0, c.duplex());
        assertNull(c.maxVirtqueuePairs());
        String text = info.toText();
        assertTrue(text.lines().anyMatch(l -> l.matches("  speed: +0 Mbit/s")), text);
        assertTrue(text.lines().anyMatch(l -> l.matches("  duplex: +half")), text);
    }

    @Test
    void eachFieldFollowsItsOwnFeatureBit() {
        NetConfig all = new NetConfig(24, "02:00:00:00:00:01", 1, 4, 1500, 10000L, 1, 40, 128, 0x3fL);
        assertEquals(new NetConfig(24, null, null, null, null, null, null, null, null, null), all.validFor(0));
        assertEquals("02:00:00:00:00:01", all.validFor(bit("VIRTIO_NET_F_MAC")).mac());
        assertEquals(1, all.validFor(bit("VIRTIO_NET_F_STATUS")).status());
        assertEquals(4, all.validFor(bit("VIRTIO_NET_F_MQ")).maxVirtqueuePairs());
        assertEquals(1500, all.validFor(bit("VIRTIO_NET_F_MTU")).mtu());
        NetConfig sd = all.validFor(bit("VIRTIO_NET_F_SPEED_DUPLEX"));
        assertEquals(new NetConfig(24, null, null, null, null, 10000L, 1, null, null, null), sd);
        // the kernel sends max_virtqueue_pairs with F_RSS too; RSS makes the three RSS fields valid
        assertEquals(new NetConfig(24, null, null, 4, null, null, null, 40, 128, 0x3fL), all.validFor(bit("VIRTIO_NET_F_RSS")));
        assertEquals(new NetConfig(24, null, null, null, null, null, null, 40, null, 0x3fL),
                all.validFor(bit("VIRTIO_NET_F_HASH_REPORT")));
    }

    private static long bit(String name) {
        for (int b = 0; b < 64; b++) {
            if (new VirtioFeatures(1L << b, VirtioDeviceId.NET.id()).names().equals(List.of(name))) {
                return 1L << b;
            }
        }
        throw new IllegalArgumentException(name);
    }
}
