package org.vdpactl.mgmt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.vhost.VirtioDeviceId;
import org.vdpactl.vhost.VirtioFeatures;

class MgmtValuesTest {

    @Test
    void macAddressesParseFormatAndClassify() {
        MacAddress m = MacAddress.parse("02:AA:bb:0c:0d:0E");
        assertEquals("02:aa:bb:0c:0d:0e", m.toString());
        assertArrayEquals(new byte[] {2, (byte) 0xaa, (byte) 0xbb, 12, 13, 14}, m.octets());
        assertTrue(m.isValidUnicast());
        assertTrue(MacAddress.parse("01:00:5e:00:00:01").isMulticast());
        assertTrue(MacAddress.parse("00:00:00:00:00:00").isZero());
        // iproute2's vdpa: ':' only, one or two hex digits per octet ("…:0" is 0x00)
        assertEquals(MacAddress.parse("02:00:00:00:00:00"), MacAddress.parse("02:0:0:0:0:0"));
        assertThrows(IllegalArgumentException.class, () -> MacAddress.parse("00-00-00-00-00-00"));
        assertFalse(MacAddress.parse("00:00:00:00:00:00").isValidUnicast());
        // the forms iproute2 also takes (fewer groups, 3+ characters) are covered row by row in IprouteMacSyntaxTest
        for (String bad : List.of("zz:00:00:00:00:01", "", "02::00:00:00:01")) {
            assertThrows(IllegalArgumentException.class, () -> MacAddress.parse(bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> MacAddress.of(new byte[5]));
        assertEquals(MacAddress.parse("02:00:00:00:00:01"), MacAddress.of(new byte[] {2, 0, 0, 0, 0, 1}));
    }

    @Test
    void mgmtHandlesSplitAtTheSlash() {
        assertEquals(new MgmtHandle(null, "vdpasim_net"), MgmtHandle.parse("vdpasim_net"));
        assertEquals(new MgmtHandle("pci", "0000:08:00.2"), MgmtHandle.parse("pci/0000:08:00.2"));
        assertEquals("pci/0000:08:00.2", MgmtHandle.parse("pci/0000:08:00.2").toString());
        assertThrows(IllegalArgumentException.class, () -> MgmtHandle.parse("a/b/c"));
        DeviceSpec s = DeviceSpec.of("vdpa9", "pci/0000:08:00.2").withMtu(9000).withMaxVqPairs(4);
        assertEquals("pci", s.mgmtBusName());
        assertEquals(9000, s.mtu());
        assertEquals(4, s.maxVqPairs());
    }

    @Test
    void attributeMasksAreNamedLikeIproute2Options() {
        assertEquals(List.of("max_vqp"), VdpaAttribute.describeMask(0x1000));
        assertEquals(List.of("mac"), VdpaAttribute.describeMask(0x400));
        assertEquals(List.of("device_features"), VdpaAttribute.describeMask(0x100000));
        assertEquals(List.of("mac", "mtu", "VDPA_ATTR_DEV_BLK_CFG_CAPACITY", "attr_40"),
                VdpaAttribute.describeMask((1L << 10) | (1L << 13) | (1L << 21) | (1L << 40)));
        assertEquals(37, VdpaAttribute.MAX);
        assertEquals(21, VdpaAttribute.DEV_BLK_CFG_CAPACITY.number());
        assertEquals("VDPA_CMD_DEV_ATTR_SET", VdpaCommand.DEV_ATTR_SET.constantName());
        assertEquals(8, VdpaCommand.DEV_ATTR_SET.number());
        assertEquals(VdpaCommand.DEV_GET, VdpaCommand.of(5).orElseThrow());
    }

    @Test
    void featureNamesFollowIproute2Tables() {
        assertEquals(List.of("MTU", "MAC", "STATUS", "CTRL_VQ", "CTRL_MAC_ADDR", "ANY_LAYOUT", "VERSION_1", "ACCESS_PLATFORM"),
                VirtioNames.featureNames(0x308830028L, VirtioDeviceId.NET.id()));
        assertEquals(List.of("SIZE_MAX", "SEG_MAX", "BLK_SIZE", "FLUSH", "TOPOLOGY", "MQ", "DISCARD", "WRITE_ZEROES",
                "ANY_LAYOUT", "VERSION_1", "ACCESS_PLATFORM"), VirtioNames.featureNames(0x308007646L, VirtioDeviceId.BLOCK.id()));
        assertEquals(List.of("bit_3", "RING_EVENT_IDX", "bit_30", "bit_63"), VirtioNames.featureNames((1L << 3) | (1L << 29) | (1L << 30) | (1L << 63), 0));
        assertEquals("< unknown class >", VirtioNames.className(9));
        assertEquals("<unknown type>", VirtioNames.deviceTypeName(9));
    }

    @Test
    void iproute2NamesAreTheUapiNamesWithoutPrefixAndOnlyForTheBitsIproute2Knows() {
        // VirtioFeatures names USO4 (54) and NOTIF_CONFIG_DATA (39); iproute2 does not
        assertEquals(List.of("MQ", "ANY_LAYOUT", "RING_INDIRECT_DESC", "VERSION_1", "bit_39", "bit_54", "RSS"),
                VirtioNames.featureNames((1L << 22) | (1L << 27) | (1L << 28) | (1L << 32) | (1L << 39) | (1L << 60) | (1L << 54),
                        VirtioDeviceId.NET.id()));
        for (int bit = 0; bit < 64; bit++) {
            String shown = VirtioNames.featureNames(1L << bit, VirtioDeviceId.NET.id()).get(0);
            if (!shown.startsWith("bit_")) {
                String uapi = VirtioFeatures.bitName(bit, VirtioDeviceId.NET.id());
                assertTrue(uapi.replace("VIRTIO_RING_F_", "VIRTIO_F_RING_").endsWith("_" + shown), bit + ": " + shown + " is not " + uapi + " without its prefix");
            }
        }
    }
}
