package org.vdpactl.fake.netlink;

import static org.vdpactl.ffi.gen.netlink.netlink_h.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.vdpactl.abi.NetlinkAttribute;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.sys.Errno;

/**
 * The attribute table a genetlink handler gets ({@code info->attrs}): for each type the last
 * attribute of that type in the request, after the policy check of {@code lib/nlattr.c}
 * ({@code __nla_validate_parse} and {@code validate_nla}), reproduced rule by rule so the fake
 * answers malformed requests with Linux's errno, text, offset and policy.
 */
public final class RequestAttributes {
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED;

    private final byte[] datagram;
    private final MemorySegment seg;
    /** For each type: offset of the attribute header in the datagram, or -1. */
    private final int[] header;

    private RequestAttributes(byte[] datagram, int maxType) {
        this.datagram = datagram;
        this.seg = MemorySegment.ofArray(datagram);
        this.header = new int[maxType + 1];
        Arrays.fill(header, -1);
    }

    /** A table without attributes (an op without policy). */
    public static RequestAttributes none(byte[] datagram) {
        return new RequestAttributes(datagram, 0);
    }

    /**
     * Parses and validates the attributes at [{@code start}, {@code start+length}) of a request
     * that begins at {@code msgStart}.
     *
     * @param strict NL_VALIDATE_STRICT (unknown types, exact lengths, reply-only types, nested flag
     *               and trailing bytes are errors) versus NL_VALIDATE_LIBERAL
     * @throws KernelError with the extack filled in, as the kernel refuses
     */
    public static RequestAttributes parse(byte[] datagram, int msgStart, int start, int length,
                                          AttrPolicy[] policy, int maxType, boolean strict, Extack extack) {
        RequestAttributes t = new RequestAttributes(datagram, maxType);
        int pos = start;
        int rem = length;
        while (rem >= NLA_HDRLEN()) {
            int nlaLen = Short.toUnsignedInt(t.seg.get(U16, pos));
            int rawType = Short.toUnsignedInt(t.seg.get(U16, pos + 2));
            if (nlaLen < NLA_HDRLEN() || nlaLen > rem) {
                break;
            }
            int type = rawType & NLA_TYPE_MASK();
            if (type == 0 || type > maxType) {
                if (strict) {
                    extack.atAttribute("Unknown attribute type", pos - msgStart);
                    throw KernelError.of(Errno.EINVAL, "attribute type " + type + " outside 1.." + maxType);
                }
            } else {
                t.validateOne(pos, msgStart, rawType, nlaLen - NLA_HDRLEN(), policy[type], strict, extack);
                t.header[type] = pos;
            }
            int aligned = SkBuff.nlaAlign(nlaLen);
            pos += aligned;
            rem -= aligned;
        }
        if (rem > 0) {
            extack.message("bytes leftover after parsing attributes");
            if (strict) {
                throw KernelError.of(Errno.EINVAL, rem + " bytes leftover after the attributes");
            }
        }
        return t;
    }

    private void validateOne(int pos, int msgStart, int rawType, int attrLen, AttrPolicy pt, boolean strict, Extack extack) {
        int off = pos - msgStart;
        int exact = pt.kind().exactLength;
        if (exact != 0 && attrLen != exact && strict) {
            extack.atAttribute("invalid attribute length", off, pt);
            throw KernelError.of(Errno.EINVAL, "attribute of " + attrLen + " bytes, policy wants " + exact);
        }
        if (strict && pt.kind() != AttrPolicy.Kind.UNSPEC && (rawType & NLA_F_NESTED()) != 0) {
            extack.atAttribute("NLA_F_NESTED not expected", off, pt);
            throw KernelError.of(Errno.EINVAL, "NLA_F_NESTED on a flat attribute");
        }
        int payload = pos + NLA_HDRLEN();
        switch (pt.kind()) {
            case UNSPEC -> {
                if (strict) {
                    extack.atAttribute("Unsupported attribute", off);
                    throw KernelError.of(Errno.EINVAL, "attribute without a request policy");
                }
            }
            case NUL_STRING -> {
                int minlen = pt.maxLength() != 0 ? Math.min(attrLen, pt.maxLength() + 1) : attrLen;
                if (minlen == 0 || indexOfNul(payload, minlen) < 0) {
                    throw failed(extack, off, pt, Errno.EINVAL);
                }
                checkString(payload, attrLen, pt, off, extack);
            }
            case STRING -> checkString(payload, attrLen, pt, off, extack);
            case BINARY -> {
                if (pt.maxLength() != 0 && attrLen > pt.maxLength()) {
                    throw failed(extack, off, pt, Errno.ERANGE);
                }
            }
            default -> {
                if (attrLen < pt.kind().exactLength) {
                    throw failed(extack, off, pt, Errno.ERANGE);
                }
            }
        }
        if (pt.hasRange()) {
            long value = pt.kind() == AttrPolicy.Kind.BINARY ? attrLen : unsignedAt(payload, pt.kind().exactLength);
            if (Long.compareUnsigned(value, pt.min()) < 0 || Long.compareUnsigned(value, pt.max()) > 0) {
                boolean binary = pt.kind() == AttrPolicy.Kind.BINARY;
                extack.atAttribute(binary ? "binary attribute size out of range" : "integer out of range", off, pt);
                throw KernelError.of(Errno.ERANGE, "value " + Long.toUnsignedString(value) + " out of range");
            }
        }
    }

    private void checkString(int payload, int attrLen, AttrPolicy pt, int off, Extack extack) {
        if (attrLen < 1) {
            throw failed(extack, off, pt, Errno.ERANGE);
        }
        if (pt.maxLength() != 0) {
            int len = datagram[payload + attrLen - 1] == 0 ? attrLen - 1 : attrLen;
            if (len > pt.maxLength()) {
                throw failed(extack, off, pt, Errno.ERANGE);
            }
        }
    }

    private static KernelError failed(Extack extack, int off, AttrPolicy pt, int errno) {
        extack.atAttribute("Attribute failed policy validation", off, pt);
        return KernelError.of(errno, "attribute failed policy validation");
    }

    private int indexOfNul(int from, int len) {
        for (int i = 0; i < len; i++) {
            if (datagram[from + i] == 0) {
                return i;
            }
        }
        return -1;
    }

    private long unsignedAt(int payload, int width) {
        return switch (width) {
            case 2 -> Short.toUnsignedLong(seg.get(U16, payload));
            case 4 -> Integer.toUnsignedLong(seg.get(U32, payload));
            default -> seg.get(U64, payload);
        };
    }

    public boolean has(NetlinkAttribute a) {
        return has(a.number());
    }

    /** nla_get_u8/u16/u32/u64 by the ABI's declared type (after validation the length is the policy's). */
    public long unsigned(NetlinkAttribute a) {
        int width = a.type().width();
        if (width == 0) {
            throw new IllegalArgumentException(a.constantName() + " is a " + a.type().label() + " attribute");
        }
        int payload = header[a.number()] + NLA_HDRLEN();
        return width == 1 ? Byte.toUnsignedLong(datagram[payload]) : unsignedAt(payload, width);
    }

    public String cString(NetlinkAttribute a) {
        return cString(a.number());
    }

    public byte[] bytes(NetlinkAttribute a) {
        return bytes(a.number());
    }

    public boolean has(int type) {
        return type < header.length && header[type] >= 0;
    }

    public int payloadLength(int type) {
        return Short.toUnsignedInt(seg.get(U16, header[type])) - NLA_HDRLEN();
    }

    /**
     * The string a kernel handler reads with {@code nla_data()}: up to the first NUL, which an
     * NLA_STRING need not contain; then the following bytes of the datagram count too, as in C.
     */
    public String cString(int type) {
        int from = header[type] + NLA_HDRLEN();
        int end = from;
        while (end < datagram.length && datagram[end] != 0) {
            end++;
        }
        return new String(datagram, from, end - from, StandardCharsets.UTF_8);
    }

    public byte[] bytes(int type) {
        int from = header[type] + NLA_HDRLEN();
        return Arrays.copyOfRange(datagram, from, from + payloadLength(type));
    }
}
