package org.vdpactl.mgmt;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.netlink.GenlFamily;
import org.vdpactl.netlink.GenlPolicy;
import org.vdpactl.netlink.NetlinkException;
import org.vdpactl.sys.Errno;

/**
 * Which attributes each vdpa command of the running kernel accepts in a request.
 *
 * <p>Learnt from nlctrl's policy dump (CTRL_CMD_GETPOLICY, Linux 5.10+ per command): an attribute
 * is accepted when the command's policy has an entry for it; strict validation refuses any other
 * ("Unsupported attribute" at or below maxattr, "Unknown attribute type" above it;
 * docs/spec/kernel-abi.md §7.6). When the kernel refuses the dump, the family's maxattr is all
 * there is to go by: every attribute up to it counts as known, which over-approximates (reply-only
 * attributes are known but refused in requests).
 */
public final class VdpaAttributeSupport {
    private static final Logger LOG = LoggerFactory.getLogger(VdpaAttributeSupport.class);

    /** Where the answer came from. */
    public enum Source {
        /** CTRL_CMD_GETPOLICY: exact, per command. */
        POLICY_DUMP,
        /** CTRL_ATTR_MAXATTR of CTRL_CMD_GETFAMILY: an upper bound, the same for every command. */
        MAXATTR
    }

    private final GenlFamily family;
    private final GenlPolicy policy;
    private final String fallbackReason;

    private VdpaAttributeSupport(GenlFamily family, GenlPolicy policy, String fallbackReason) {
        this.family = family;
        this.policy = policy;
        this.fallbackReason = fallbackReason;
    }

    /** From a policy dump already taken. */
    public static VdpaAttributeSupport fromPolicy(GenlFamily family, GenlPolicy policy) {
        return new VdpaAttributeSupport(family, policy, null);
    }

    /** From the family's maxattr alone (a kernel that refused the dump, or a caller that did not ask). */
    public static VdpaAttributeSupport fromMaxAttr(GenlFamily family, String reason) {
        return new VdpaAttributeSupport(family, null, reason);
    }

    /**
     * Asks for the policy dump and falls back to maxattr when the kernel refuses it (any netlink
     * error: EOPNOTSUPP before 5.7, or a dump nlctrl cannot give).
     */
    public static VdpaAttributeSupport probe(GenlFamily family, Supplier<GenlPolicy> dump) {
        try {
            return fromPolicy(family, dump.get());
        } catch (NetlinkException e) {
            String why = "CTRL_CMD_GETPOLICY refused: " + Errno.name(e.errno())
                    + (e.extackMessage() != null ? " (" + e.extackMessage() + ")" : "");
            LOG.debug("vdpa attribute probe falls back to maxattr {}: {}", family.maxAttr(), why);
            return fromMaxAttr(family, why);
        }
    }

    public Source source() {
        return policy != null ? Source.POLICY_DUMP : Source.MAXATTR;
    }

    /** Why the probe fell back to maxattr (empty when the policy dump answered). */
    public Optional<String> fallbackReason() {
        return Optional.ofNullable(fallbackReason);
    }

    /** The dump itself (empty after a fallback). */
    public Optional<GenlPolicy> policy() {
        return Optional.ofNullable(policy);
    }

    public GenlFamily family() {
        return family;
    }

    /** True when a do request of the command may carry the attribute without a policy refusal. */
    public boolean accepts(VdpaCommand command, VdpaAttribute attribute) {
        if (policy == null) {
            return attribute.number() <= family.maxAttr();
        }
        return policy.requestAttributes(command.number()).contains(attribute.number());
    }

    /** The attributes (of the 6.12+ numbering) a do request of the command may carry. */
    public Set<VdpaAttribute> accepted(VdpaCommand command) {
        Set<VdpaAttribute> out = EnumSet.noneOf(VdpaAttribute.class);
        for (VdpaAttribute a : VdpaAttribute.values()) {
            if (accepts(command, a)) {
                out.add(a);
            }
        }
        return out;
    }
}
