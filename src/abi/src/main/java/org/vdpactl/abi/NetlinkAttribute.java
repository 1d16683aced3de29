package org.vdpactl.abi;

/**
 * A netlink attribute as the kernel defines it: its number, its wire type and the fewest payload bytes it may
 * have. The writers refuse a put of another width and the readers read by the declared type, so the width of an
 * attribute is chosen once, here, and not at each call site.
 */
public interface NetlinkAttribute {
    /** The uapi name, e.g. {@code VDPA_ATTR_DEV_NET_CFG_MTU}. */
    String constantName();

    /** The kernel's number, wire type and request policy of this attribute. */
    AttributeSpec spec();

    /** The attribute type on the wire ({@code nla_type} without the flag bits). */
    default int number() {
        return spec().number();
    }

    /** The wire type, whose width a put must have. */
    default NlaType type() {
        return spec().type();
    }

    /** The kernel's policy entry for this attribute in requests, or null where no request carries it. */
    default NlaPolicy requestPolicy() {
        return spec().requestPolicy();
    }

    /** The fewest payload bytes a reader accepts (a policy's exact length where it has one, e.g. a MAC's 6). */
    default int minLength() {
        return spec().minLength();
    }

    /**
     * Refuses a put of the wrong kind: {@code putU32} of a u16 attribute, or a value that does not fit its width.
     *
     * @throws IllegalArgumentException naming the attribute, its type and what was attempted
     */
    default void checkPut(NlaType put, long value) {
        if (type() != put) {
            throw new IllegalArgumentException(constantName() + " is a " + type().label() + " attribute, not a "
                    + put.label());
        }
        if (put.isInteger() && put != NlaType.U64 && (value < 0 || value > put.maxValue())) {
            throw new IllegalArgumentException(constantName() + " (" + put.label() + ") cannot hold " + value);
        }
    }

    /** Refuses a string put on a non-string attribute. */
    default void checkString() {
        if (!type().isString()) {
            throw new IllegalArgumentException(constantName() + " is a " + type().label() + " attribute, not a string");
        }
    }

    /** Refuses bytes put on a non-binary attribute, or fewer bytes than it needs. */
    default void checkBytes(int length) {
        if (type() != NlaType.BINARY) {
            throw new IllegalArgumentException(constantName() + " is a " + type().label() + " attribute, not binary");
        }
        if (length < minLength()) {
            throw new IllegalArgumentException(constantName() + " needs at least " + minLength() + " bytes, not " + length);
        }
    }

    /** An attribute that is no constant of an enum (a number another kernel's numbering gives). */
    static NetlinkAttribute of(String constantName, int number, NlaType type) {
        record Plain(String constantName, AttributeSpec spec) implements NetlinkAttribute {
        }
        return new Plain(constantName, AttributeSpec.reply(number, type));
    }
}
