package org.vdpactl.abi;

/**
 * The wire type of a netlink attribute, named as {@code enum nla_policy}'s types in include/net/netlink.h. For a
 * request attribute it is the type of the kernel's {@code nla_policy} entry; for a reply-only attribute the
 * width the kernel's {@code nla_put_*} call writes.
 *
 * <p>{@link #minLength()} is what lib/nlattr.c's {@code validate_nla} demands of the payload before it reads it
 * ({@code nla_attr_minlen} for the integers, one byte for the strings: an empty NLA_STRING fails the policy, an
 * NLA_NUL_STRING needs its NUL); {@link #width()} the exact length strict validation wants of an integer
 * ({@code nla_attr_len}), 0 for the variable-length types.
 */
public enum NlaType {
    U8(1, 1),
    U16(2, 2),
    U32(4, 4),
    U64(8, 8),
    STRING(0, 1),
    NUL_STRING(0, 1),
    BINARY(0, 0),
    NESTED(0, 0),
    /** NLA_FLAG: present or absent, never a payload. */
    FLAG(0, 0);

    private final int width;
    private final int minLength;

    NlaType(int width, int minLength) {
        this.width = width;
        this.minLength = minLength;
    }

    /** The integer's width in bytes; 0 for strings, binary, nests and flags. */
    public int width() {
        return width;
    }

    /** The fewest payload bytes an attribute of this type may have. */
    public int minLength() {
        return minLength;
    }

    public boolean isInteger() {
        return width != 0;
    }

    public boolean isString() {
        return this == STRING || this == NUL_STRING;
    }

    /** The largest unsigned value of an integer type. */
    public long maxValue() {
        return width == Long.BYTES ? -1L : (1L << (8 * width)) - 1;
    }

    /** "u16", "string": as the kernel's headers comment an attribute's type. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
