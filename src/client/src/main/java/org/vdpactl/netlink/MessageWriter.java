package org.vdpactl.netlink;

import static org.vdpactl.netlink.NetlinkAbi.NLA_HDRLEN;
import static org.vdpactl.netlink.NetlinkAbi.NLA_LEN;
import static org.vdpactl.netlink.NetlinkAbi.NLA_LEN_OFFSET;
import static org.vdpactl.netlink.NetlinkAbi.NLA_TYPE;
import static org.vdpactl.netlink.NetlinkAbi.NLA_TYPE_OFFSET;
import static org.vdpactl.netlink.NetlinkAbi.NLMSG_HDRLEN;
import static org.vdpactl.netlink.NetlinkAbi.NLMSG_LEN;
import static org.vdpactl.netlink.NetlinkAbi.NLMSG_LEN_OFFSET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.vdpactl.abi.NetlinkAttribute;
import org.vdpactl.abi.NlaType;

/**
 * Builds netlink messages into one growable buffer that is reused between messages (call
 * {@link #reset()}). Several messages may follow each other, as in a dump datagram. Padding bytes
 * are always zero; lengths are fixed up when a nest or a message ends.
 *
 * <p>The puts that take a {@link NetlinkAttribute} write the attribute's number and refuse a put of another
 * width than its declared type (or a value that does not fit it) with an {@link IllegalArgumentException}: the
 * width is the ABI's, not the call site's. The puts that take a raw type write what they are told, for tests that
 * send a kernel malformed requests on purpose.
 */
public final class MessageWriter {
    private byte[] buf;
    private MemorySegment seg;
    private int pos;
    private int messageStart = -1;

    public MessageWriter() {
        this(1024);
    }

    public MessageWriter(int initialCapacity) {
        buf = new byte[Math.max(64, initialCapacity)];
        seg = MemorySegment.ofArray(buf);
    }

    /** Forgets everything written; the buffer is kept. */
    public MessageWriter reset() {
        pos = 0;
        messageStart = -1;
        return this;
    }

    /** Bytes written so far. */
    public int size() {
        return pos;
    }

    /** Drops everything after {@code position} (a value of {@link #size()} taken earlier). */
    public MessageWriter rollback(int position) {
        if (position < 0 || position > pos) {
            throw new IllegalArgumentException("position " + position + " outside 0.." + pos);
        }
        pos = position;
        if (messageStart >= pos) {
            messageStart = -1;
        }
        return this;
    }

    /** Starts a message; its length is filled in by {@link #endMessage()}. */
    public MessageWriter beginMessage(int type, int flags, int seq, int pid) {
        alignTo(NetlinkAbi.NLMSG_ALIGNTO);
        messageStart = pos;
        ensure(NLMSG_HDRLEN);
        new NetlinkHeader(0, type, flags, seq, pid).write(seg, pos);
        pos += NLMSG_HDRLEN;
        return this;
    }

    /** Writes a genl header right after the message header. */
    public MessageWriter genlHeader(int cmd, int version) {
        return genlHeader(new GenlHeader(cmd, version, 0));
    }

    public MessageWriter genlHeader(GenlHeader h) {
        ensure(NetlinkAbi.GENL_HDRLEN);
        h.write(seg, pos);
        pos += NetlinkAbi.GENL_HDRLEN;
        return this;
    }

    /** Ends the current message: sets nlmsg_len and pads to NLMSG_ALIGN. Returns the message length. */
    public int endMessage() {
        if (messageStart < 0) {
            throw new IllegalStateException("no message begun");
        }
        int len = pos - messageStart;
        seg.set(NLMSG_LEN, messageStart + NLMSG_LEN_OFFSET, len);
        alignTo(NetlinkAbi.NLMSG_ALIGNTO);
        messageStart = -1;
        return len;
    }

    public MessageWriter putU8(NetlinkAttribute a, int value) {
        a.checkPut(NlaType.U8, value);
        return putU8(a.number(), value);
    }

    public MessageWriter putU16(NetlinkAttribute a, int value) {
        a.checkPut(NlaType.U16, value);
        return putU16(a.number(), value);
    }

    /** A u32 attribute; {@code value} is taken as unsigned. */
    public MessageWriter putU32(NetlinkAttribute a, int value) {
        a.checkPut(NlaType.U32, Integer.toUnsignedLong(value));
        return putU32(a.number(), value);
    }

    public MessageWriter putU64(NetlinkAttribute a, long value) {
        a.checkPut(NlaType.U64, value);
        return putU64(a.number(), value);
    }

    /** A string or NUL-string attribute, NUL-terminated. */
    public MessageWriter putString(NetlinkAttribute a, String value) {
        a.checkString();
        return putString(a.number(), value);
    }

    /** A binary attribute (a MAC address) of at least its minimum length. */
    public MessageWriter putBytes(NetlinkAttribute a, byte[] payload) {
        a.checkBytes(payload.length);
        return putAttribute(a.number(), payload);
    }

    public MessageWriter putU8(int type, int value) {
        return putAttribute(type, new byte[] {(byte) value});
    }

    public MessageWriter putU16(int type, int value) {
        int at = header(type, Short.BYTES);
        seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, at, (short) value);
        return this;
    }

    public MessageWriter putU32(int type, int value) {
        int at = header(type, Integer.BYTES);
        seg.set(ValueLayout.JAVA_INT_UNALIGNED, at, value);
        return this;
    }

    public MessageWriter putU64(int type, long value) {
        int at = header(type, Long.BYTES);
        seg.set(ValueLayout.JAVA_LONG_UNALIGNED, at, value);
        return this;
    }

    /** A NUL-terminated string attribute (what nla_put_string and iproute2's mnl_attr_put_strz send). */
    public MessageWriter putString(int type, String value) {
        byte[] s = value.getBytes(StandardCharsets.UTF_8);
        byte[] z = Arrays.copyOf(s, s.length + 1);
        return putAttribute(type, z);
    }

    /** An attribute with this raw type (flag bits allowed) and payload. */
    public MessageWriter putAttribute(int rawType, byte[] payload) {
        int at = header(rawType, payload.length);
        MemorySegment.copy(payload, 0, seg, ValueLayout.JAVA_BYTE, at, payload.length);
        return this;
    }

    /** Starts a nested attribute; pass the returned token to {@link #endNested(int)}. */
    public int beginNested(int rawType) {
        alignTo(NetlinkAbi.NLA_ALIGNTO);
        int start = pos;
        ensure(NLA_HDRLEN);
        seg.set(NLA_TYPE, pos + NLA_TYPE_OFFSET, (short) rawType);
        pos += NLA_HDRLEN;
        return start;
    }

    public MessageWriter endNested(int token) {
        seg.set(NLA_LEN, token + NLA_LEN_OFFSET, (short) (pos - token));
        return this;
    }

    /** Appends raw bytes (e.g. a whole pre-built message); no alignment is added. */
    public MessageWriter putRaw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, pos, bytes.length);
        pos += bytes.length;
        return this;
    }

    /** Appends raw bytes of a segment. */
    public MessageWriter putRaw(MemorySegment bytes) {
        int n = Math.toIntExact(bytes.byteSize());
        ensure(n);
        MemorySegment.copy(bytes, 0, seg, pos, n);
        pos += n;
        return this;
    }

    /** Overwrites a 32-bit value at an absolute position (for fix-ups such as a DONE status). */
    public MessageWriter patchS32(int position, int value) {
        seg.set(ValueLayout.JAVA_INT_UNALIGNED, position, value);
        return this;
    }

    /** Pads with zero bytes to the given alignment. */
    public MessageWriter alignTo(int alignment) {
        int aligned = (pos + alignment - 1) & ~(alignment - 1);
        ensure(aligned - pos);
        Arrays.fill(buf, pos, aligned, (byte) 0);
        pos = aligned;
        return this;
    }

    /** A view of the bytes written so far (valid until the next write). */
    public MemorySegment segment() {
        return seg.asSlice(0, pos);
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }

    private int header(int rawType, int payloadLength) {
        alignTo(NetlinkAbi.NLA_ALIGNTO);
        int total = NLA_HDRLEN + payloadLength;
        if (total > 0xFFFF) {
            throw new IllegalArgumentException("attribute of " + payloadLength + " bytes does not fit nla_len");
        }
        int padded = NetlinkAbi.nlaAlign(total);
        ensure(padded);
        // like nla_put: nla_len excludes the padding, but the message (and an enclosing nest) includes it
        Arrays.fill(buf, pos + total, pos + padded, (byte) 0);
        seg.set(NLA_LEN, pos + NLA_LEN_OFFSET, (short) total);
        seg.set(NLA_TYPE, pos + NLA_TYPE_OFFSET, (short) rawType);
        int payloadAt = pos + NLA_HDRLEN;
        pos += padded;
        return payloadAt;
    }

    private void ensure(int more) {
        if (pos + more > buf.length) {
            int cap = buf.length;
            while (cap < pos + more) {
                cap *= 2;
            }
            buf = Arrays.copyOf(buf, cap);
            seg = MemorySegment.ofArray(buf);
        }
    }
}
