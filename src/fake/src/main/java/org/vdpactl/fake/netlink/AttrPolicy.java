package org.vdpactl.fake.netlink;

import static org.vdpactl.ffi.gen.netlink.netlink_h.*;

import java.util.Arrays;
import java.util.List;
import org.vdpactl.abi.NetlinkAttribute;
import org.vdpactl.abi.NlaPolicy;

/**
 * One entry of a kernel {@code struct nla_policy} as the fake validates it: the ABI's {@link NlaPolicy}
 * (which the attribute enums of org.vdpactl.abi hold, one per attribute) plus what {@code lib/nlattr.c}
 * checks and what {@code net/netlink/policy.c} reports in NLMSGERR_ATTR_POLICY.
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

    /** The ABI's policy entry (the attribute enums of org.vdpactl.abi hold them), or UNSPEC for none. */
    public static AttrPolicy of(NlaPolicy p) {
        if (p == null) {
            return UNSPEC;
        }
        return new AttrPolicy(Kind.valueOf(p.type().name()), p.min(), p.max(), p.hasRange(), p.maxLength());
    }

    /**
     * A policy array as the kernel declares one ({@code [ATTR] = {...}} up to {@code maxType}): each attribute's
     * own request policy, UNSPEC where none is listed.
     */
    public static AttrPolicy[] table(int maxType, List<? extends NetlinkAttribute> attributes) {
        AttrPolicy[] p = new AttrPolicy[maxType + 1];
        Arrays.fill(p, UNSPEC);
        for (NetlinkAttribute a : attributes) {
            p[a.number()] = of(a.requestPolicy());
        }
        return p;
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
