package org.vdpactl.abi;

/**
 * What the kernel defines of one netlink attribute: its number, its wire type and, for an attribute a request may
 * carry, the family's policy entry. Each constant of {@link UapiVdpaAttribute} and {@link UapiGenlCtrlAttribute}
 * holds one, so these facts and what follows from them ({@link #minLength()}) are written once for every family.
 *
 * @param number        the attribute type on the wire ({@code nla_type} without the flag bits)
 * @param type          the wire type: the policy entry's for a request attribute, else the kernel's {@code nla_put_*} width
 * @param requestPolicy the family's policy entry, or null where no request carries the attribute
 */
public record AttributeSpec(int number, NlaType type, NlaPolicy requestPolicy) {

    /** An attribute only replies carry (strict validation refuses it in a request). */
    public static AttributeSpec reply(int number, NlaType type) {
        return new AttributeSpec(number, type, null);
    }

    /** An attribute requests may carry, with the family's policy entry for it. */
    public static AttributeSpec request(int number, NlaType type, NlaPolicy policy) {
        return new AttributeSpec(number, type, policy);
    }

    /** The fewest payload bytes a reader accepts: a binary policy's exact length (a MAC's 6), else the type's. */
    public int minLength() {
        return requestPolicy != null && requestPolicy.hasRange() && type == NlaType.BINARY ? (int) requestPolicy.min()
                : type.minLength();
    }
}
