package org.vdpactl.fake.netlink;

import static org.vdpactl.ffi.gen.netlink.netlink_h.*;


/**
 * One entry of a kernel {@code struct nla_policy}, reduced to the kinds the vdpa and nlctrl
 * families use, with what {@code lib/nlattr.c} checks and what {@code net/netlink/policy.c}
 * reports in NLMSGERR_ATTR_POLICY.
 *
 * @param kind      the NLA_* type
 * @param min       lowest value (integers) or length (binary) a range check allows
 * @param max       highest value or length (unsigned)
 * @param hasRange  whether a NLA_VALIDATE_RANGE/MIN check applies
 * @param maxLength the policy's {@code .len} for strings (0 = none)
 */
public record AttrPolicy(Kind kind, long min, long max, boolean hasRange, int maxLength) {

    /** The NLA_* types used here. */
    public enum Kind {
        /** No policy: a reply-only attribute ("Unsupported attribute" under strict validation). */
        UNSPEC(0, 0),
        STRING(0, 0),
        NUL_STRING(0, 0),
        U16(2, NL_ATTR_TYPE_U16()),
        U32(4, NL_ATTR_TYPE_U32()),
        U64(8, NL_ATTR_TYPE_U64()),
        BINARY(0, NL_ATTR_TYPE_BINARY());

        /** nla_attr_len: the exact length strict validation demands (0 = any). */
        final int exactLength;
        final int reportedType;

        Kind(int exactLength, int reportedType) {
            this.exactLength = exactLength;
            this.reportedType = reportedType;
        }
    }

    public static final AttrPolicy UNSPEC = new AttrPolicy(Kind.UNSPEC, 0, 0, false, 0);
    public static final AttrPolicy STRING = new AttrPolicy(Kind.STRING, 0, 0, false, 0);
    public static final AttrPolicy NUL_STRING = new AttrPolicy(Kind.NUL_STRING, 0, 0, false, 0);
    public static final AttrPolicy U16 = new AttrPolicy(Kind.U16, 0, 0xFFFFL, false, 0);
    public static final AttrPolicy U32 = new AttrPolicy(Kind.U32, 0, 0xFFFF_FFFFL, false, 0);
    public static final AttrPolicy U64 = new AttrPolicy(Kind.U64, 0, -1L, false, 0);
    /** NLA_POLICY_ETH_ADDR: binary of exactly 6 bytes. */
    public static final AttrPolicy ETH_ADDR = new AttrPolicy(Kind.BINARY, 6, 6, true, 0);

    /** NLA_POLICY_MIN(NLA_U16, min). */
    public static AttrPolicy u16Min(int min) {
        return new AttrPolicy(Kind.U16, min, 0xFFFFL, true, 0);
    }

    /** { .type = NLA_NUL_STRING, .len = len }. */
    public static AttrPolicy nulString(int len) {
        return new AttrPolicy(Kind.NUL_STRING, 0, 0, false, len);
    }

    /**
     * Reads the notation of a kernel profile's request policy: "STRING", "NUL_STRING", "U16",
     * "U32", "U64", "U16 min N" (NLA_POLICY_MIN) or "BINARY len N" (NLA_POLICY_EXACT_LEN).
     */
    public static AttrPolicy parse(String notation) {
        String[] w = notation.trim().split("\\s+");
        if (w.length == 3 && w[0].equals("U16") && w[1].equals("min")) {
            return u16Min(Integer.parseInt(w[2]));
        }
        if (w.length == 3 && w[0].equals("BINARY") && w[1].equals("len")) {
            int len = Integer.parseInt(w[2]);
            return new AttrPolicy(Kind.BINARY, len, len, true, 0);
        }
        return switch (notation.trim()) {
            case "STRING" -> STRING;
            case "NUL_STRING" -> NUL_STRING;
            case "U16" -> U16;
            case "U32" -> U32;
            case "U64" -> U64;
            default -> throw new IllegalArgumentException("unknown attribute policy notation: " + notation);
        };
    }

    /** The NL_ATTR_TYPE_* this policy reports. */
    int reportedType() {
        return switch (kind) {
            case STRING -> NL_ATTR_TYPE_STRING();
            case NUL_STRING -> NL_ATTR_TYPE_NUL_STRING();
            default -> kind.reportedType;
        };
    }

    /**
     * Writes the NLMSGERR_ATTR_POLICY nest the way {@code netlink_policy_dump_write_attr} does:
     * value range or length bounds first, NL_POLICY_TYPE_ATTR_TYPE last.
     */
    public void writeNest(SkBuff w) {
        writeNest(w, NLMSGERR_ATTR_POLICY());
    }

    /**
     * The same description in a nest of the given type (NLA_F_NESTED added, as nla_nest_start
     * does): the policy dump puts one per attribute, typed by the attribute's number.
     */
    public void writeNest(SkBuff w, int nestType) {
        int nest = w.beginNested(NLA_F_NESTED() | nestType);
        switch (kind) {
            case U16, U32, U64 -> {
                w.putU64(NL_POLICY_TYPE_ATTR_MIN_VALUE_U(), min);
                w.putU64(NL_POLICY_TYPE_ATTR_MAX_VALUE_U(), max);
            }
            case BINARY, STRING, NUL_STRING -> {
                if (hasRange) {
                    if (min != 0) {
                        w.putU32(NL_POLICY_TYPE_ATTR_MIN_LENGTH(), (int) min);
                    }
                    if (max < 0xFFFF) {
                        w.putU32(NL_POLICY_TYPE_ATTR_MAX_LENGTH(), (int) max);
                    }
                } else if (maxLength != 0) {
                    w.putU32(NL_POLICY_TYPE_ATTR_MAX_LENGTH(), maxLength);
                }
            }
            default -> {
            }
        }
        w.putU32(NL_POLICY_TYPE_ATTR_TYPE(), reportedType());
        w.endNested(nest);
    }
}
