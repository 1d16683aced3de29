package org.vdpactl.netlink;

import static org.vdpactl.netlink.NetlinkAbi.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The extended ACK TLVs of an {@code NLMSG_ERROR} (or {@code NLMSG_DONE}): the kernel's message
 * text, the byte offset of the offending attribute in the request, the policy the attribute
 * violated (NLMSGERR_ATTR_POLICY, nested NL_POLICY_TYPE_ATTR_* values) and the missing-attribute
 * hints. Every component is null when the kernel did not send it.
 */
public record ExtAck(String message, Integer offset, Attributes policy, Integer missingType, Integer missingNest) {
    public static final ExtAck NONE = new ExtAck(null, null, null, null, null);

    private static final Map<Integer, String> TYPE_NAMES = Map.of(
            NL_ATTR_TYPE_U8, "u8", NL_ATTR_TYPE_U16, "u16", NL_ATTR_TYPE_U32, "u32", NL_ATTR_TYPE_U64, "u64",
            NL_ATTR_TYPE_BINARY, "binary", NL_ATTR_TYPE_STRING, "string", NL_ATTR_TYPE_NUL_STRING, "nul-string",
            NL_ATTR_TYPE_FLAG, "flag", NL_ATTR_TYPE_NESTED, "nested");

    /** Reads the TLVs that follow an error or done message. */
    public static ExtAck parse(Attributes tlvs) {
        if (tlvs.size() == 0) {
            return NONE;
        }
        return new ExtAck(
                tlvs.optionalString(NLMSGERR_ATTR_MSG).orElse(null),
                tlvs.unsignedIntOrNull(NLMSGERR_ATTR_OFFS),
                tlvs.find(NLMSGERR_ATTR_POLICY).map(Attribute::nested).orElse(null),
                tlvs.unsignedIntOrNull(NLMSGERR_ATTR_MISS_TYPE),
                tlvs.unsignedIntOrNull(NLMSGERR_ATTR_MISS_NEST));
    }

    public boolean isEmpty() {
        return message == null && offset == null && policy == null && missingType == null && missingNest == null;
    }

    /** The policy as text, e.g. "u16 range 68..65535" or "binary length 6..6"; empty without policy. */
    public String policyDescription() {
        if (policy == null) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        policy.optionalUnsigned(NL_POLICY_TYPE_ATTR_TYPE).ifPresent(t -> parts.add(TYPE_NAMES.getOrDefault((int) t, "type " + t)));
        Long minU = policy.unsignedOrNull(NL_POLICY_TYPE_ATTR_MIN_VALUE_U);
        Long maxU = policy.unsignedOrNull(NL_POLICY_TYPE_ATTR_MAX_VALUE_U);
        if (minU != null || maxU != null) {
            parts.add("range " + (minU == null ? "?" : Long.toUnsignedString(minU)) + ".."
                    + (maxU == null ? "?" : Long.toUnsignedString(maxU)));
        }
        Long minS = policy.unsignedOrNull(NL_POLICY_TYPE_ATTR_MIN_VALUE_S);
        Long maxS = policy.unsignedOrNull(NL_POLICY_TYPE_ATTR_MAX_VALUE_S);
        if (minS != null || maxS != null) {
            parts.add("range " + minS + ".." + maxS);
        }
        Integer minLen = policy.unsignedIntOrNull(NL_POLICY_TYPE_ATTR_MIN_LENGTH);
        Integer maxLen = policy.unsignedIntOrNull(NL_POLICY_TYPE_ATTR_MAX_LENGTH);
        if (minLen != null || maxLen != null) {
            parts.add("length " + (minLen == null ? "0" : minLen) + ".." + (maxLen == null ? "?" : maxLen));
        }
        return String.join(" ", parts);
    }
}
