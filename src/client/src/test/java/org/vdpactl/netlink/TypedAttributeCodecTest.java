package org.vdpactl.netlink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vdpactl.abi.UapiVdpaAttribute.VDPA_ATTR_DEV_FEATURES;
import static org.vdpactl.abi.UapiVdpaAttribute.VDPA_ATTR_DEV_ID;
import static org.vdpactl.abi.UapiVdpaAttribute.VDPA_ATTR_DEV_NAME;
import static org.vdpactl.abi.UapiVdpaAttribute.VDPA_ATTR_DEV_NET_CFG_MACADDR;
import static org.vdpactl.abi.UapiVdpaAttribute.VDPA_ATTR_DEV_NET_CFG_MTU;
import static org.vdpactl.netlink.WrittenAttributes.attrs;

import org.junit.jupiter.api.Test;

/**
 * The writer and the reader take an attribute's width from the ABI's declaration (UapiVdpaAttribute), not from
 * the call site: a put of another width is refused before anything is written, a read goes by the declared type,
 * and an attribute shorter than its type is a decode error naming it (the check the kernel's policy makes of a
 * request, lib/nlattr.c validate_nla).
 */
class TypedAttributeCodecTest {

    @Test
    void theWriterRefusesAPutOfAnotherWidthAndWritesNothing() {
        MessageWriter w = new MessageWriter();
        w.beginMessage(19, 0, 1, 1).genlHeader(3, 1);
        int before = w.size();
        IllegalArgumentException wide = assertThrows(IllegalArgumentException.class, () -> w.putU32(VDPA_ATTR_DEV_NET_CFG_MTU, 1500));
        assertEquals("VDPA_ATTR_DEV_NET_CFG_MTU is a u16 attribute, not a u32", wide.getMessage());
        assertThrows(IllegalArgumentException.class, () -> w.putU16(VDPA_ATTR_DEV_FEATURES, 1));
        assertThrows(IllegalArgumentException.class, () -> w.putU16(VDPA_ATTR_DEV_NET_CFG_MTU, 70_000), "does not fit a u16");
        assertThrows(IllegalArgumentException.class, () -> w.putString(VDPA_ATTR_DEV_ID, "1"));
        assertThrows(IllegalArgumentException.class, () -> w.putBytes(VDPA_ATTR_DEV_NET_CFG_MACADDR, new byte[5]));
        assertThrows(IllegalArgumentException.class, () -> w.putU64(VDPA_ATTR_DEV_NAME, 1));
        assertEquals(before, w.size(), "a refused put writes nothing");
        w.putU16(VDPA_ATTR_DEV_NET_CFG_MTU, 1500);
        assertEquals(before + 8, w.size(), "a u16 attribute: 4-byte header, 2 bytes, 2 of padding");
    }

    @Test
    void theReaderReadsByTheDeclaredType() {
        Attributes a = attrs(w -> w.putU16(VDPA_ATTR_DEV_NET_CFG_MTU, 9000).putU64(VDPA_ATTR_DEV_FEATURES, 0x1_0000_0020L)
                .putString(VDPA_ATTR_DEV_NAME, "vdpa0"));
        assertEquals(9000, a.unsignedInt(VDPA_ATTR_DEV_NET_CFG_MTU));
        assertEquals(0x1_0000_0020L, a.unsigned(VDPA_ATTR_DEV_FEATURES));
        assertEquals("vdpa0", a.string(VDPA_ATTR_DEV_NAME));
        assertThrows(IllegalArgumentException.class, () -> a.unsignedInt(VDPA_ATTR_DEV_FEATURES), "a u64 is no int");
        // a longer payload: nla_get_u16 reads the first two bytes, so does the reader
        Attributes wide = attrs(w -> w.putU32(VDPA_ATTR_DEV_NET_CFG_MTU.number(), 0x0001_05DC));
        assertEquals(1500, wide.unsignedInt(VDPA_ATTR_DEV_NET_CFG_MTU));
    }

    @Test
    void anAttributeShorterThanItsTypeIsADecodeErrorNamingIt() {
        Attributes a = attrs(w -> w.putU8(VDPA_ATTR_DEV_NET_CFG_MTU.number(), 5).putAttribute(VDPA_ATTR_DEV_NET_CFG_MACADDR.number(), new byte[5])
                .putAttribute(VDPA_ATTR_DEV_NAME.number(), new byte[0]));
        NetlinkParseException mtu = assertThrows(NetlinkParseException.class, () -> a.unsignedIntOrNull(VDPA_ATTR_DEV_NET_CFG_MTU));
        assertTrue(mtu.getMessage().contains("VDPA_ATTR_DEV_NET_CFG_MTU has 1 bytes, a u16 attribute needs at least 2"), mtu.getMessage());
        NetlinkParseException mac = assertThrows(NetlinkParseException.class, () -> a.bytes(VDPA_ATTR_DEV_NET_CFG_MACADDR));
        assertTrue(mac.getMessage().contains("VDPA_ATTR_DEV_NET_CFG_MACADDR has 5 bytes, a binary attribute needs at least 6"), mac.getMessage());
        assertThrows(NetlinkParseException.class, () -> a.string(VDPA_ATTR_DEV_NAME), "an empty string attribute");
    }
}
