package org.vdpactl.netlink;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.vdpactl.abi.NlaType;

/**
 * One netlink attribute of a received message: its type (flag bits removed), the flag bits
 * (NLA_F_NESTED, NLA_F_NET_BYTEORDER) and a copy of its payload, padding excluded.
 *
 * <p>{@link #unsigned(NlaType)} reads an integer by its declared type, as the kernel's {@code nla_get_u*} do, and
 * refuses a payload shorter than the type ({@link Attributes#find(NetlinkAttribute)} does the same for every
 * declared attribute). {@link #unsigned()} reads by the attribute's length, for attributes no ABI enum declares
 * (lengths 1, 2, 4 and 8 read exactly; a longer payload contributes its first eight bytes).
 */
public record Attribute(int type, int flags, byte[] payload) {

    public Attribute {
        payload = payload.clone();
    }

    /** Payload length in bytes (nla_len minus the 4-byte header). */
    public int length() {
        return payload.length;
    }

    public boolean isNested() {
        return (flags & NetlinkAbi.NLA_F_NESTED) != 0;
    }

    /** The payload as an unsigned integer read by length (little-endian unless NLA_F_NET_BYTEORDER). */
    public long unsigned() {
        if (payload.length == 0) {
            throw new NetlinkParseException("attribute " + type + " has no payload where an integer is expected");
        }
        return read(Math.min(payload.length, Long.BYTES));
    }

    /**
     * The payload as an unsigned integer of the declared type: its first {@code declared.width()} bytes (little-endian
     * unless NLA_F_NET_BYTEORDER).
     *
     * @throws NetlinkParseException when the payload is shorter than the type
     */
    public long unsigned(NlaType declared) {
        int n = declared.width();
        if (n == 0) {
            throw new IllegalArgumentException(declared.label() + " is not an integer type");
        }
        if (payload.length < n) {
            throw new NetlinkParseException("attribute " + type + " has " + payload.length + " bytes, a "
                    + declared.label() + " needs " + n);
        }
        return read(n);
    }

    /** The first {@code n} payload bytes as an unsigned integer (little-endian unless NLA_F_NET_BYTEORDER). */
    private long read(int n) {
        boolean bigEndian = (flags & NetlinkAbi.NLA_F_NET_BYTEORDER) != 0;
        long v = 0;
        for (int i = 0; i < n; i++) {
            int b = payload[bigEndian ? i : n - 1 - i] & 0xFF;
            v = (v << 8) | b;
        }
        return v;
    }

    /** The payload as an unsigned integer that must fit an int (u8/u16/u32 fields). */
    public int unsignedInt() {
        long v = unsigned();
        if (Long.compareUnsigned(v, 0xFFFF_FFFFL) > 0) {
            throw new NetlinkParseException("attribute " + type + " holds " + Long.toUnsignedString(v)
                    + ", more than 32 bits");
        }
        return (int) v;
    }

    /** The payload as a string: up to the first NUL, or all of it when there is none. */
    public String string() {
        int end = 0;
        while (end < payload.length && payload[end] != 0) {
            end++;
        }
        return new String(payload, 0, end, StandardCharsets.UTF_8);
    }

    /** A copy of the payload. */
    public byte[] bytes() {
        return payload.clone();
    }

    /** The payload parsed as nested attributes. */
    public Attributes nested() {
        return Attributes.parse(payload);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Attribute a && a.type == type && a.flags == flags && Arrays.equals(a.payload, payload);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * type + flags) + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "nla{type=" + type + (flags != 0 ? ", flags=0x" + Integer.toHexString(flags) : "")
                + ", len=" + payload.length + ", " + HexFormat.of().formatHex(payload) + "}";
    }
}
