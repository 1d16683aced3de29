package org.vdpactl.netlink;

import static org.vdpactl.abi.UapiGenlCtrlAttribute.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vdpactl.netlink.NetlinkAbi.*;

import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.sys.Errno;
import org.vdpactl.netlink.NetlinkMessage.DoneMessage;
import org.vdpactl.netlink.NetlinkMessage.ErrorMessage;
import org.vdpactl.netlink.NetlinkMessage.GenlMessage;

class NetlinkCodecTest {
    private static final HexFormat HEX = HexFormat.of();

    private static byte[] hex(String spaced) {
        return HEX.parseHex(spaced.replaceAll("[^0-9a-fA-F]", ""));
    }

    private static String ascii(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            sb.append(String.format("%02x", (int) c));
        }
        return sb.toString();
    }

    @Test
    void getFamilyRequestMatchesTheWorkedExampleByteForByte() {
        // kernel-abi.md §7.5: GETFAMILY (seq 1, REQUEST|ACK)
        byte[] expected = hex("20000000 1000 0500 01000000 00000000 03 01 0000 0900 0200" + ascii("vdpa") + "00 000000");
        MessageWriter w = new MessageWriter();
        w.beginMessage(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, 1, 0).genlHeader(CTRL_CMD_GETFAMILY, 1)
                .putString(CTRL_ATTR_FAMILY_NAME, "vdpa");
        assertEquals(32, w.endMessage());
        assertArrayEquals(expected, w.toByteArray());
    }

    @Test
    void devNewRequestMatchesTheWorkedExampleByteForByte() {
        // kernel-abi.md §7.5: DEV_NEW on family 0x1f, 68 bytes (seq 2)
        byte[] expected = hex("44000000 1f00 0500 02000000 00000000 03 01 0000"
                + "1000 0200" + ascii("vdpasim_net") + "00"
                + "0a00 0400" + ascii("vdpa0") + "00 0000"
                + "0a00 0a00 020000000001 0000"
                + "0600 0d00 dc05 0000");
        MessageWriter w = new MessageWriter();
        w.beginMessage(0x1f, NLM_F_REQUEST | NLM_F_ACK, 2, 0).genlHeader(3, 1)
                .putString(2, "vdpasim_net").putString(4, "vdpa0")
                .putAttribute(10, new byte[] {2, 0, 0, 0, 0, 1}).putU16(13, 1500);
        assertEquals(68, w.endMessage());
        assertArrayEquals(expected, w.toByteArray());
    }

    @Test
    void genlMessageRoundTripsThroughTheDecoder() {
        MessageWriter w = new MessageWriter();
        w.beginMessage(19, NLM_F_MULTI, 7, 1234).genlHeader(3, 1)
                .putString(2, "vdpasim_net").putU32(5, 1).putU16(8, 256).putU64(20, 0x308830028L).putU8(35, 1);
        int nest = w.beginNested(0x8000 | 6);
        w.putU32(1, 2).putU32(2, 0xe);
        w.endNested(nest);
        w.endMessage();
        List<NetlinkMessage> msgs = NetlinkDecoder.decode(w.toByteArray());
        assertEquals(1, msgs.size());
        GenlMessage g = assertInstanceOf(GenlMessage.class, msgs.getFirst());
        assertEquals(new NetlinkHeader(w.size(), 19, NLM_F_MULTI, 7, 1234), g.header());
        assertEquals(new GenlHeader(3, 1, 0), g.genl());
        Attributes a = g.attributes();
        assertEquals("vdpasim_net", a.string(2));
        assertEquals(1, a.unsignedInt(5));
        assertEquals(256, a.unsignedInt(8));
        assertEquals(0x308830028L, a.unsigned(20));
        assertEquals(1, a.unsignedInt(35));
        Attribute nested = a.require(6);
        assertTrue(nested.isNested());
        assertEquals(0xe, nested.nested().unsignedInt(2));
    }

    @Test
    void severalMessagesInOneDatagramAreSplit() {
        MessageWriter w = new MessageWriter();
        for (int i = 0; i < 3; i++) {
            w.beginMessage(19, NLM_F_MULTI, 9, 1).genlHeader(3, 1).putString(4, "vdpa" + i);
            w.endMessage();
        }
        List<NetlinkMessage> msgs = NetlinkDecoder.decode(w.toByteArray());
        assertEquals(3, msgs.size());
        assertEquals("vdpa2", ((GenlMessage) msgs.get(2)).attributes().string(4));
    }

    @Test
    void integersAreReadByLengthAndUnknownOrLongerAttributesAreTolerated() {
        MessageWriter w = new MessageWriter();
        w.beginMessage(19, 0, 1, 1).genlHeader(6, 1)
                .putU16(11, 1) // NET_STATUS: u16 on the wire although the uapi comment says u8
                .putU32(13, 1500) // an MTU widened to 32 bits by some later kernel
                .putAttribute(0, new byte[0]) // a pad attribute (type 0) is skipped
                .putAttribute(999, new byte[] {1, 2, 3}) // unknown type: kept, ignored by callers
                .putAttribute(20, HEX.parseHex("2800830803000000ffff")) // u64 with two extra bytes
                .putAttribute(NLA_F_NET_BYTEORDER | 17, new byte[] {0, 0, 0, 5});
        w.endMessage();
        Attributes a = ((GenlMessage) NetlinkDecoder.decode(w.toByteArray()).getFirst()).attributes();
        assertEquals(1, a.unsignedInt(11));
        assertEquals(1500, a.unsignedInt(13));
        assertFalse(a.has(0));
        assertEquals(3, a.require(999).length());
        assertEquals(0x308830028L, a.unsigned(20));
        assertEquals(5, a.unsignedInt(17));
    }

    @Test
    void uncappedErrorEchoesTheRequestAndCarriesExtack() {
        // what Linux sends without CAP_ACK: error, request header, padded request payload, TLVs
        MessageWriter req = new MessageWriter();
        req.beginMessage(19, NLM_F_REQUEST | NLM_F_ACK, 5, 0).genlHeader(5, 1).putString(4, "nope");
        req.endMessage();
        byte[] request = req.toByteArray();
        MessageWriter w = new MessageWriter();
        w.beginMessage(NLMSG_ERROR, NLM_F_ACK_TLVS, 5, 42).putRaw(le32(-19)).putRaw(request)
                .putString(NLMSGERR_ATTR_MSG, "vdpa: device not found");
        w.endMessage();
        ErrorMessage e = assertInstanceOf(ErrorMessage.class, NetlinkDecoder.decode(w.toByteArray()).getFirst());
        assertEquals(19, e.errno());
        assertFalse(e.isAck());
        assertEquals(request.length, e.request().length());
        assertEquals(request.length - NLMSG_HDRLEN, e.requestPayload().length);
        assertEquals("vdpa: device not found", e.extack().message());
        assertNull(e.extack().offset());
    }

    @Test
    void cappedPolicyErrorCarriesOffsetAndPolicy() {
        MessageWriter w = new MessageWriter();
        byte[] reqHeader = new byte[NLMSG_HDRLEN];
        new NetlinkHeader(64, 19, 5, 8, 0).write(MemorySegment.ofArray(reqHeader), 0);
        w.beginMessage(NLMSG_ERROR, NLM_F_CAPPED | NLM_F_ACK_TLVS, 8, 42).putRaw(le32(-34)).putRaw(reqHeader)
                .putString(NLMSGERR_ATTR_MSG, "integer out of range").putU32(NLMSGERR_ATTR_OFFS, 56);
        int p = w.beginNested(NLA_F_NESTED | NLMSGERR_ATTR_POLICY);
        w.putU64(NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 68).putU64(NL_POLICY_TYPE_ATTR_MAX_VALUE_U, 0xffff)
                .putU32(NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_U16);
        w.endNested(p);
        w.endMessage();
        ErrorMessage e = (ErrorMessage) NetlinkDecoder.decode(w.toByteArray()).getFirst();
        assertEquals(34, e.errno());
        assertEquals(0, e.requestPayload().length);
        assertEquals(56, e.extack().offset());
        assertEquals("u16 range 68..65535", e.extack().policyDescription());
        NetlinkException ex = new NetlinkException("VDPA_CMD_DEV_NEW t1", e.errno(), e.extack());
        assertEquals("VDPA_CMD_DEV_NEW t1: " + Errno.describe(34) + ": integer out of range "
                + "(attribute at byte 56 of the request; policy u16 range 68..65535)", ex.getMessage());
    }

    @Test
    void ackAndDoneDecode() {
        MessageWriter w = new MessageWriter();
        byte[] reqHeader = new byte[NLMSG_HDRLEN];
        w.beginMessage(NLMSG_ERROR, NLM_F_CAPPED, 3, 42).putRaw(le32(0)).putRaw(reqHeader);
        w.endMessage();
        w.beginMessage(NLMSG_DONE, NLM_F_MULTI, 3, 42).putRaw(le32(0));
        w.endMessage();
        List<NetlinkMessage> msgs = NetlinkDecoder.decode(w.toByteArray());
        assertEquals(36, ((ErrorMessage) msgs.get(0)).header().length());
        assertTrue(((ErrorMessage) msgs.get(0)).isAck());
        DoneMessage d = assertInstanceOf(DoneMessage.class, msgs.get(1));
        assertEquals(20, d.header().length());
        assertEquals(0, d.status());
    }

    @Test
    void malformedInputIsATypedParseError() {
        byte[] tooLong = hex("40000000 1300 0000 01000000 00000000 05 01 0000");
        assertEquals(NetlinkParseException.EPROTO,
                assertThrows(NetlinkParseException.class, () -> NetlinkDecoder.decode(tooLong)).errno());
        byte[] badAttr = hex("18000000 1300 0000 01000000 00000000 05 01 0000 0200 0400");
        assertThrows(NetlinkParseException.class, () -> NetlinkDecoder.decode(badAttr));
        byte[] noGenl = hex("12000000 1300 0000 01000000 00000000 0500");
        assertThrows(NetlinkParseException.class, () -> NetlinkDecoder.decode(noGenl));
    }

    @Test
    void attributeReadersRejectWhatDoesNotFit() {
        Attribute empty = new Attribute(5, 0, new byte[0]);
        assertThrows(NetlinkParseException.class, empty::unsigned);
        Attribute big = new Attribute(5, 0, HEX.parseHex("0000000001000000"));
        assertThrows(NetlinkParseException.class, big::unsignedInt);
        assertEquals("ab", new Attribute(4, 0, new byte[] {'a', 'b'}).string());
        assertThrows(NetlinkParseException.class, () -> Attributes.EMPTY.require(4));
    }

    @Test
    void rollbackDropsAPartlyWrittenMessage() {
        MessageWriter w = new MessageWriter(64);
        w.beginMessage(19, 0, 1, 1).genlHeader(3, 1).putString(4, "keep");
        w.endMessage();
        int mark = w.size();
        w.beginMessage(19, 0, 2, 1).genlHeader(3, 1).putString(4, "x".repeat(500));
        w.rollback(mark);
        assertEquals(1, NetlinkDecoder.decode(w.toByteArray()).size());
    }

    @Test
    void flagNamesAreReadable() {
        assertEquals("REQUEST|ACK|DUMP", flagNames(0x305));
        assertEquals("MULTI|0x400", flagNames(0x402));
    }

    private static byte[] le32(int v) {
        return new byte[] {(byte) v, (byte) (v >> 8), (byte) (v >> 16), (byte) (v >> 24)};
    }
}
