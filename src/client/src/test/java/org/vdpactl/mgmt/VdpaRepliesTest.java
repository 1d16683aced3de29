package org.vdpactl.mgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vdpactl.netlink.WrittenAttributes.attrs;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.netlink.Attributes;
import org.vdpactl.netlink.NetlinkParseException;

/** Decoding of reply attributes into records: tolerant of what a client must tolerate, strict where a reply is unusable. */
class VdpaRepliesTest {

    @Test
    void aDeviceReplyWithUnknownAttributesStillDecodes() {
        Attributes a = attrs(w -> w.putString(1, "pci").putString(2, "0000:08:00.2").putString(4, "m0").putU32(5, 1)
                .putU32(6, 0x15b3).putU32(7, 66).putU16(8, 1024).putU16(9, 1).putAttribute(99, new byte[] {1, 2}));
        assertEquals(new VdpaDevInfo("m0", "pci", "0000:08:00.2", 1, 0x15b3, 66, 1024, 1), VdpaReplies.device(a));
    }

    @Test
    void olderKernelsLeaveOutOptionalFields() {
        // 6.1 has no DEV_MIN_VQ_SIZE; a mgmtdev of 5.x had no max VQs / features
        Attributes d = attrs(w -> w.putString(2, "vdpasim_net").putString(4, "vdpa0").putU32(5, 1).putU32(6, 0).putU32(7, 3).putU16(8, 256));
        assertNull(VdpaReplies.device(d).minVqSize());
        Attributes m = attrs(w -> w.putString(2, "vdpasim_net").putU64(3, 2));
        assertEquals(new MgmtDevInfo(null, "vdpasim_net", 2, null, null), VdpaReplies.mgmtDev(m));
    }

    @Test
    void legacyNumberingReadsDeviceFeaturesFromAttribute21() {
        Attributes a = attrs(w -> w.putString(4, "vdpa0").putU32(5, 1).putU16(11, 1).putU64(21, 0x308820028L).putU16(13, 1500));
        DevConfig legacy = VdpaReplies.config(a, true);
        assertEquals(0x308820028L, legacy.deviceFeatures());
        assertEquals(1, legacy.net().status());
        assertNull(VdpaReplies.config(a, false).deviceFeatures(), "with 6.12 numbering attribute 21 is the block capacity");
    }

    @Test
    void netStatusIsReadAsTheU16TheKernelSendsAndAShorterOneIsRefused() {
        // vdpa_dev_net_config_fill: nla_put_u16 (6.1, 6.12, 7.2), whatever linux/vdpa.h's comment says
        Attributes u8 = attrs(w -> w.putString(4, "x").putU32(5, 1).putU8(11, 3));
        Attributes u16 = attrs(w -> w.putString(4, "x").putU32(5, 1).putU16(11, 3));
        NetlinkParseException shortStatus = assertThrows(NetlinkParseException.class, () -> VdpaReplies.config(u8, false));
        assertTrue(shortStatus.getMessage().contains("VDPA_ATTR_DEV_NET_STATUS has 1 bytes, a u16 attribute needs at least 2"),
                shortStatus.getMessage());
        assertEquals(3, VdpaReplies.config(u16, false).net().status());
        assertEquals(Boolean.TRUE, VdpaReplies.config(u16, false).net().announce());
    }

    @Test
    void aMacShorterThanTheAbisExactLengthIsRefusedNamingIt() {
        // NLA_POLICY_ETH_ADDR: the client's VdpaAttribute reads by the ABI attribute's spec, policy included
        Attributes a = attrs(w -> w.putString(4, "x").putU32(5, 1).putAttribute(10, new byte[5]));
        NetlinkParseException shortMac = assertThrows(NetlinkParseException.class, () -> VdpaReplies.config(a, false));
        assertTrue(shortMac.getMessage().contains("VDPA_ATTR_DEV_NET_CFG_MACADDR has 5 bytes, a binary attribute needs at least 6"),
                shortMac.getMessage());
    }

    @Test
    void vendorStatisticsArePairedInOrder() {
        Attributes a = attrs(w -> w.putString(4, "vdpa0").putU32(5, 1).putU64(14, 0x300010028L).putU32(17, 1)
                .putString(18, "tx packets").putU64(19, 5).putString(18, "tx bytes").putU64(19, 300));
        VendorStats s = VdpaReplies.vendorStats(a);
        assertEquals(List.of(new VendorStats.Stat("tx packets", 5), new VendorStats.Stat("tx bytes", 300)), s.stats());
        assertEquals(1, s.queueIndex());
        assertNull(s.maxVqPairs());
        Attributes orphan = attrs(w -> w.putString(4, "vdpa0").putU32(5, 1).putU32(17, 1).putU64(19, 5));
        assertThrows(NetlinkParseException.class, () -> VdpaReplies.vendorStats(orphan));
    }

    @Test
    void aReplyWithoutItsNameIsUnusable() {
        assertThrows(NetlinkParseException.class, () -> VdpaReplies.device(attrs(w -> w.putU32(5, 1))));
        assertThrows(NetlinkParseException.class, () -> VdpaReplies.config(attrs(w -> w.putString(4, "x").putU32(5, 1)
                .putAttribute(10, new byte[5])), false));
    }
}
