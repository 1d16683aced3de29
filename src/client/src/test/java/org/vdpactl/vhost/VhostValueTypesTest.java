package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Names and arithmetic of the value types, checked against kernel-abi.md §2.2 and §9. */
class VhostValueTypesTest {

    @Test
    void vdpaSimNetFeaturesByName() {
        VirtioFeatures f = new VirtioFeatures(0x308830028L, VirtioDeviceId.NET.id());
        assertEquals(List.of("VIRTIO_NET_F_MTU", "VIRTIO_NET_F_MAC", "VIRTIO_NET_F_STATUS", "VIRTIO_NET_F_CTRL_VQ",
                "VIRTIO_NET_F_CTRL_MAC_ADDR", "VIRTIO_F_ANY_LAYOUT", "VIRTIO_F_VERSION_1", "VIRTIO_F_ACCESS_PLATFORM"), f.names());
        assertTrue(f.has(33));
    }

    @Test
    void vdpaSimBlkFeaturesByName() {
        VirtioFeatures f = new VirtioFeatures(0x308007646L, VirtioDeviceId.BLOCK.id());
        assertEquals(List.of("VIRTIO_BLK_F_SIZE_MAX", "VIRTIO_BLK_F_SEG_MAX", "VIRTIO_BLK_F_BLK_SIZE", "VIRTIO_BLK_F_FLUSH",
                "VIRTIO_BLK_F_TOPOLOGY", "VIRTIO_BLK_F_MQ", "VIRTIO_BLK_F_DISCARD", "VIRTIO_BLK_F_WRITE_ZEROES",
                "VIRTIO_F_ANY_LAYOUT", "VIRTIO_F_VERSION_1", "VIRTIO_F_ACCESS_PLATFORM"), f.names());
    }

    @Test
    void sameBitDifferentNamesPerDeviceAndUnknownBits() {
        assertEquals("VIRTIO_NET_F_MAC", VirtioFeatures.bitName(5, 1));
        assertEquals("VIRTIO_BLK_F_RO", VirtioFeatures.bitName(5, 2));
        assertEquals("bit 5", VirtioFeatures.bitName(5, 4));
        assertEquals("bit 44", VirtioFeatures.bitName(44, 1));
        assertEquals("VIRTIO_F_RING_PACKED", VirtioFeatures.bitName(34, 2));
        assertEquals("0x1000000000000000 (VIRTIO_NET_F_RSS)", new VirtioFeatures(1L << 60, 1).toString());
        assertEquals("0x8000000000000000 (VIRTIO_NET_F_SPEED_DUPLEX)", new VirtioFeatures(1L << 63, 1).toString());
    }

    @Test
    void backendFeaturesOfVdpaSim() {
        BackendFeatures b = new BackendFeatures(0x17E);
        assertEquals(List.of("IOTLB_MSG_V2", "IOTLB_BATCH", "IOTLB_ASID", "SUSPEND", "RESUME", "ENABLE_AFTER_DRIVER_OK",
                "IOTLB_PERSIST"), b.names());
        assertFalse(b.has(BackendFeature.DESC_ASID));
        assertTrue(b.containsAll(BackendFeatures.ORCHESTRATION));
        assertEquals(0x3E, BackendFeatures.ORCHESTRATION.bits());
        assertEquals(List.of("bit 0", "bit 9"), new BackendFeatures(0x201).names());
        assertEquals(0x100, BackendFeature.IOTLB_PERSIST.mask());
        assertNull(BackendFeature.ofBit(0));
    }

    @Test
    void statusFlags() {
        DeviceStatus s = DeviceStatus.of(DeviceStatus.ACKNOWLEDGE, DeviceStatus.DRIVER, DeviceStatus.FEATURES_OK, DeviceStatus.DRIVER_OK);
        assertEquals(0x0F, s.bits());
        assertEquals("0x0f (ACKNOWLEDGE|DRIVER|DRIVER_OK|FEATURES_OK)", s.toString());
        assertEquals("0x00 (reset)", DeviceStatus.RESET.toString());
        assertEquals(List.of("bit 4", "FAILED"), new DeviceStatus(0x90).names());
        assertThrows(IllegalArgumentException.class, () -> new DeviceStatus(256));
    }

    @Test
    void deviceIds() {
        assertEquals(VirtioDeviceId.NET, VirtioDeviceId.of(1));
        assertEquals("block", VirtioDeviceId.nameOf(2));
        assertEquals("unknown(99)", VirtioDeviceId.nameOf(99));
    }

    @Test
    void iovaRangeContainmentUsesTheKernelsRules() {
        IovaRange r = new IovaRange(0x1000, 0xFFFF);
        assertTrue(r.contains(0x1000, 0xF000));
        assertFalse(r.contains(0x1000, 0xF001));
        assertFalse(r.contains(0xFFF, 2));
        assertFalse(r.contains(0x2000, 0));
        assertTrue(IovaRange.FULL.contains(-4096, 4096));
        assertFalse(IovaRange.FULL.contains(-4096, 8192), "wraps");
        assertEquals("[0x0, 0xffffffffffffffff]", IovaRange.FULL.toString());
    }
}
