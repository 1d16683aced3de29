package org.vdpactl.abi;

/**
 * One {@code struct nla_policy} entry (include/net/netlink.h), reduced to the forms the vdpa and nlctrl families
 * use: a plain type, {@code NLA_POLICY_MIN} on an integer, {@code NLA_POLICY_EXACT_LEN} on binary (which
 * {@code NLA_POLICY_ETH_ADDR} is) and {@code .len} on a NUL string.
 *
 * @param type      the policy's NLA_* type
 * @param min       the lowest value (integers) or length (binary) the range check allows
 * @param max       the highest value or length (unsigned)
 * @param hasRange  whether an NLA_VALIDATE_RANGE/MIN check applies
 * @param maxLength the policy's {@code .len} for strings (0: none)
 */
public record NlaPolicy(NlaType type, long min, long max, boolean hasRange, int maxLength) {

    /** {@code { .type = NLA_X }}. */
    public static NlaPolicy of(NlaType type) {
        return new NlaPolicy(type, 0, type.isInteger() ? type.maxValue() : 0, false, 0);
    }

    /** {@code NLA_POLICY_MIN(NLA_X, min)}. */
    public static NlaPolicy min(NlaType type, long min) {
        return new NlaPolicy(type, min, type.maxValue(), true, 0);
    }

    /** {@code NLA_POLICY_EXACT_LEN(len)}: binary of exactly {@code len} bytes (ERANGE otherwise). */
    public static NlaPolicy exactLength(int len) {
        return new NlaPolicy(NlaType.BINARY, len, len, true, 0);
    }

    /** {@code { .type = NLA_NUL_STRING, .len = maxLength }}. */
    public static NlaPolicy nulString(int maxLength) {
        return new NlaPolicy(NlaType.NUL_STRING, 0, 0, false, maxLength);
    }

    @Override
    public String toString() {
        String t = type.name();
        if (hasRange && type == NlaType.BINARY) {
            return t + " len " + min;
        }
        if (hasRange) {
            return t + " min " + min;
        }
        return maxLength != 0 ? t + " len " + maxLength : t;
    }
}
