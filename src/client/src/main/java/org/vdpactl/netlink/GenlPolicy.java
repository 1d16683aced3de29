package org.vdpactl.netlink;

import static org.vdpactl.abi.UapiGenlCtrlAttribute.*;
import static org.vdpactl.netlink.NetlinkAbi.*;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.vdpactl.netlink.NetlinkMessage.GenlMessage;

/**
 * The attribute policies of one generic netlink family as nlctrl's CTRL_CMD_GETPOLICY dump reports
 * them (Linux 5.7+; per-command since 5.10): which policy each command validates its do and dump
 * requests with, and per policy the attributes that have an entry, with their type and bounds.
 * An attribute without an entry is refused by strict validation (docs/spec/kernel-abi.md §7.6).
 *
 * @param ops      command → the policy indexes of its do and dump requests (empty before 5.10)
 * @param policies policy index → attribute type → its rule
 */
public record GenlPolicy(Map<Integer, OpPolicy> ops, Map<Integer, Map<Integer, AttrRule>> policies) {

    /** CTRL_ATTR_OP_POLICY of one command: the policy index of its do and dump requests, if any. */
    public record OpPolicy(int cmd, Optional<Integer> doPolicy, Optional<Integer> dumpPolicy) {
    }

    /**
     * One attribute's entry, as netlink_policy_dump_write_attr describes it.
     *
     * @param nlType    NL_ATTR_TYPE_* (U16, STRING, BINARY, ...)
     * @param minValue  NL_POLICY_TYPE_ATTR_MIN_VALUE_U (unsigned integers), or null
     * @param maxValue  NL_POLICY_TYPE_ATTR_MAX_VALUE_U, or null
     * @param minLength NL_POLICY_TYPE_ATTR_MIN_LENGTH (strings, binary), or null
     * @param maxLength NL_POLICY_TYPE_ATTR_MAX_LENGTH, or null
     */
    public record AttrRule(int nlType, Long minValue, Long maxValue, Integer minLength, Integer maxLength) {
    }

    public GenlPolicy {
        ops = Collections.unmodifiableMap(new TreeMap<>(ops));
        Map<Integer, Map<Integer, AttrRule>> copy = new TreeMap<>();
        policies.forEach((idx, attrs) -> copy.put(idx, Collections.unmodifiableMap(new TreeMap<>(attrs))));
        policies = Collections.unmodifiableMap(copy);
    }

    /**
     * Dumps the policies of the named family. Throws the kernel's {@link NetlinkException} when it
     * refuses: EOPNOTSUPP before Linux 5.7 (no GETPOLICY), ENOENT for an unknown family, ENODATA
     * for a family without any policy.
     */
    public static GenlPolicy dump(GenlSocket socket, String family) {
        GenlRequest req = GenlRequest.of("CTRL_CMD_GETPOLICY " + family, GENL_ID_CTRL, CTRL_CMD_GETPOLICY, 1,
                w -> w.putString(CTRL_ATTR_FAMILY_NAME, family));
        return parse(socket.dump(req));
    }

    /** Decodes the dump's messages: OP_POLICY messages first, then one POLICY message per attribute. */
    public static GenlPolicy parse(List<GenlMessage> messages) {
        Map<Integer, OpPolicy> ops = new LinkedHashMap<>();
        Map<Integer, Map<Integer, AttrRule>> policies = new TreeMap<>();
        for (GenlMessage m : messages) {
            Attributes a = m.attributes();
            a.find(CTRL_ATTR_OP_POLICY).ifPresent(nest -> {
                for (Attribute op : nest.nested()) {
                    Attributes o = op.nested();
                    ops.put(op.type(), new OpPolicy(op.type(),
                            Optional.ofNullable(o.unsignedIntOrNull(CTRL_ATTR_POLICY_DO)),
                            Optional.ofNullable(o.unsignedIntOrNull(CTRL_ATTR_POLICY_DUMP))));
                }
            });
            a.find(CTRL_ATTR_POLICY).ifPresent(nest -> {
                for (Attribute policy : Attributes.parseIndexed(nest.payload())) {
                    Map<Integer, AttrRule> attrs = policies.computeIfAbsent(policy.type(), k -> new TreeMap<>());
                    for (Attribute attr : Attributes.parseIndexed(policy.payload())) {
                        attrs.put(attr.type(), rule(attr.nested()));
                    }
                }
            });
        }
        return new GenlPolicy(ops, policies);
    }

    private static AttrRule rule(Attributes d) {
        return new AttrRule(d.unsignedInt(NL_POLICY_TYPE_ATTR_TYPE),
                d.unsignedOrNull(NL_POLICY_TYPE_ATTR_MIN_VALUE_U),
                d.unsignedOrNull(NL_POLICY_TYPE_ATTR_MAX_VALUE_U),
                d.unsignedIntOrNull(NL_POLICY_TYPE_ATTR_MIN_LENGTH),
                d.unsignedIntOrNull(NL_POLICY_TYPE_ATTR_MAX_LENGTH));
    }

    /**
     * The policy a command's requests are validated with: its do policy (or, for a dump-only
     * command or a dump request, its dump policy). A kernel from 5.7 to 5.9 lists no per-command
     * policies; it dumps the family's one policy as index 0, which then applies to every command.
     */
    public Optional<Map<Integer, AttrRule>> policyOf(int cmd, boolean dump) {
        if (ops.isEmpty()) {
            return Optional.ofNullable(policies.get(0));
        }
        OpPolicy op = ops.get(cmd);
        if (op == null) {
            return Optional.empty();
        }
        Optional<Integer> idx = dump ? op.dumpPolicy() : op.doPolicy().or(op::dumpPolicy);
        return idx.map(i -> policies.getOrDefault(i, Map.of()));
    }

    /** The attribute types a command's do request may carry (those with a policy entry). */
    public NavigableSet<Integer> requestAttributes(int cmd) {
        return policyOf(cmd, false).map(p -> (NavigableSet<Integer>) new TreeSet<>(p.keySet())).orElseGet(TreeSet::new);
    }
}
