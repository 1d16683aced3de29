package org.vdpactl.fake.netlink;

import static org.vdpactl.ffi.gen.netlink.netlink_h.NLA_ALIGNTO;
import static org.vdpactl.ffi.gen.netlink.netlink_h.NLA_HDRLEN;
import static org.vdpactl.ffi.gen.netlink.netlink_h.NLMSG_ALIGNTO;
import static org.vdpactl.ffi.gen.netlink.netlink_h.NLMSG_HDRLEN;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.vdpactl.abi.NetlinkAttribute;
import org.vdpactl.abi.NlaType;
import org.vdpactl.ffi.gen.netlink.genlmsghdr;
import org.vdpactl.ffi.gen.netlink.nlattr;
import org.vdpactl.ffi.gen.netlink.nlmsghdr;

/**
 * The fake kernel's own netlink encoder, a growable {@code sk_buff} with the helpers of
 * include/net/netlink.h and include/net/genetlink.h ({@code nlmsg_put}, {@code genlmsg_put},
 * {@code nla_put*}, {@code nla_nest_start/end}, {@code nlmsg_end}). It shares nothing with the
 * client's codec: the sizes and field offsets come from the generated bindings, as the kernel takes
 * them from its headers, so a mistake in the client's writer stays visible to fake-backed tests.
 * Host byte order, zeroed padding; {@code nla_len} excludes the padding, message lengths include it.
 * The puts of a {@link NetlinkAttribute} refuse another width than the ABI declares for it.
 */
public final class SkBuff {
    private static final ByteOrder HOST = ByteOrder.nativeOrder();
    private ByteBuffer data;
    /** Where the message being built starts (nlmsg_put's return), or -1. */
    private int nlh = -1;

    SkBuff(int capacity) {
        data = ByteBuffer.allocate(Math.max(64, capacity)).order(HOST);
    }

    /** NLMSG_ALIGN. */
    static int nlmsgAlign(int len) {
        return align(len, NLMSG_ALIGNTO());
    }

    /** NLA_ALIGN. */
    static int nlaAlign(int len) {
        return align(len, NLA_ALIGNTO());
    }

    private static int align(int len, int to) {
        return (len + to - 1) & -to;
    }

    /** skb->len. */
    int size() {
        return data.position();
    }

    /** nlmsg_trim / genlmsg_cancel: forget everything after {@code mark} (an earlier {@link #size()}). */
    void rollback(int mark) {
        data.position(mark);
        if (nlh >= mark) {
            nlh = -1;
        }
    }

    /** nlmsg_put: a header whose length {@link #endMessage()} fills in. */
    SkBuff beginMessage(int type, int flags, int seq, int portId) {
        alignTo(NLMSG_ALIGNTO());
        nlh = data.position();
        room(NLMSG_HDRLEN());
        data.putInt(nlh + (int) nlmsghdr.nlmsg_len$offset(), 0);
        data.putShort(nlh + (int) nlmsghdr.nlmsg_type$offset(), (short) type);
        data.putShort(nlh + (int) nlmsghdr.nlmsg_flags$offset(), (short) flags);
        data.putInt(nlh + (int) nlmsghdr.nlmsg_seq$offset(), seq);
        data.putInt(nlh + (int) nlmsghdr.nlmsg_pid$offset(), portId);
        data.position(nlh + NLMSG_HDRLEN());
        return this;
    }

    /** genlmsg_put's family header after the message header (reserved = 0). */
    SkBuff genlHeader(int cmd, int version) {
        int at = data.position();
        int size = (int) genlmsghdr.sizeof();
        room(size);
        data.put(at + (int) genlmsghdr.cmd$offset(), (byte) cmd);
        data.put(at + (int) genlmsghdr.version$offset(), (byte) version);
        data.putShort(at + (int) genlmsghdr.reserved$offset(), (short) 0);
        data.position(at + size);
        return this;
    }

    /** nlmsg_end: sets nlmsg_len, pads to NLMSG_ALIGN; returns the length. */
    int endMessage() {
        if (nlh < 0) {
            throw new IllegalStateException("nlmsg_end without nlmsg_put");
        }
        int len = data.position() - nlh;
        data.putInt(nlh + (int) nlmsghdr.nlmsg_len$offset(), len);
        alignTo(NLMSG_ALIGNTO());
        nlh = -1;
        return len;
    }

    SkBuff putU8(NetlinkAttribute a, int value) {
        a.checkPut(NlaType.U8, value);
        return putU8(a.number(), value);
    }

    SkBuff putU16(NetlinkAttribute a, int value) {
        a.checkPut(NlaType.U16, value);
        return putU16(a.number(), value);
    }

    /** nla_put_u32; {@code value} taken as unsigned. */
    SkBuff putU32(NetlinkAttribute a, int value) {
        a.checkPut(NlaType.U32, Integer.toUnsignedLong(value));
        return putU32(a.number(), value);
    }

    SkBuff putU64(NetlinkAttribute a, long value) {
        a.checkPut(NlaType.U64, value);
        return putU64(a.number(), value);
    }

    SkBuff putString(NetlinkAttribute a, String value) {
        a.checkString();
        return putString(a.number(), value);
    }

    /** nla_put of a binary attribute (a MAC address). */
    SkBuff putBytes(NetlinkAttribute a, byte[] payload) {
        a.checkBytes(payload.length);
        return putAttribute(a.number(), payload);
    }

    SkBuff putU8(int type, int value) {
        return putAttribute(type, new byte[] {(byte) value});
    }

    SkBuff putU16(int type, int value) {
        int at = attr(type, Short.BYTES); // attr may grow the buffer: evaluate it first
        data.putShort(at, (short) value);
        return this;
    }

    SkBuff putU32(int type, int value) {
        int at = attr(type, Integer.BYTES);
        data.putInt(at, value);
        return this;
    }

    SkBuff putU64(int type, long value) {
        int at = attr(type, Long.BYTES);
        data.putLong(at, value);
        return this;
    }

    /** nla_put_string: the bytes and a terminating NUL. */
    SkBuff putString(int type, String value) {
        byte[] s = value.getBytes(StandardCharsets.UTF_8);
        return putAttribute(type, Arrays.copyOf(s, s.length + 1));
    }

    /** nla_put with a raw type (flag bits allowed). */
    SkBuff putAttribute(int type, byte[] payload) {
        int at = attr(type, payload.length);
        data.put(at, payload);
        return this;
    }

    /** nla_nest_start; pass the result to {@link #endNested(int)}. */
    int beginNested(int type) {
        alignTo(NLA_ALIGNTO());
        int start = data.position();
        room(NLA_HDRLEN());
        data.putShort(start + (int) nlattr.nla_type$offset(), (short) type);
        data.position(start + NLA_HDRLEN());
        return start;
    }

    /** nla_nest_end: the nest's length covers everything added since it started. */
    void endNested(int start) {
        data.putShort(start + (int) nlattr.nla_len$offset(), (short) (data.position() - start));
    }

    /** Copies bytes as they are (no alignment). */
    SkBuff putRaw(byte[] bytes) {
        room(bytes.length);
        data.put(bytes);
        return this;
    }

    /** Zero padding up to a multiple of {@code alignment}. */
    SkBuff alignTo(int alignment) {
        int from = data.position();
        int to = align(from, alignment);
        room(to - from);
        for (int i = from; i < to; i++) {
            data.put((byte) 0);
        }
        return this;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(data.array(), data.position());
    }

    /**
     * Writes an attribute header for {@code payload} bytes and returns where the payload goes; the
     * position is left after the padded attribute, whose padding is zeroed (nla_reserve).
     */
    private int attr(int type, int payload) {
        alignTo(NLA_ALIGNTO());
        int start = data.position();
        int len = NLA_HDRLEN() + payload;
        if (len > 0xFFFF) {
            throw new IllegalArgumentException("attribute of " + payload + " bytes does not fit nla_len");
        }
        int end = start + nlaAlign(len);
        room(end - start);
        Arrays.fill(data.array(), start + len, end, (byte) 0);
        data.putShort(start + (int) nlattr.nla_len$offset(), (short) len);
        data.putShort(start + (int) nlattr.nla_type$offset(), (short) type);
        data.position(end);
        return start + NLA_HDRLEN();
    }

    private void room(int more) {
        if (data.remaining() >= more) {
            return;
        }
        int cap = data.capacity();
        while (cap - data.position() < more) {
            cap *= 2;
        }
        ByteBuffer bigger = ByteBuffer.allocate(cap).order(HOST);
        bigger.put(data.array(), 0, data.position());
        data = bigger;
    }
}
