package org.vdpactl.fake.netlink;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.vdpactl.abi.UapiGenlCtrlAttribute;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.ffi.gen.netlink.netlink_h;
import org.vdpactl.sys.Errno;

/**
 * nlctrl's CTRL_CMD_GETPOLICY dump of one family, as Linux 6.1 to 7.2 give it
 * (ctrl_dumppolicy_start and ctrl_dumppolicy in net/netlink/genetlink.c,
 * netlink_policy_dump_write in net/netlink/policy.c; docs/spec/kernel-abi.md §7.6).
 *
 * <p>The start collects the distinct policies of the family's ops in op order (do before dump;
 * the same array with the same maxattr counts once) and numbers them from 0. The dump then sends,
 * each in a message of its own that starts with CTRL_ATTR_FAMILY_ID (u16): one
 * CTRL_ATTR_OP_POLICY {cmd {POLICY_DO idx, POLICY_DUMP idx}} per op that has a policy, then one
 * CTRL_ATTR_POLICY {policy idx {attr {bounds..., TYPE}}} per attribute with a policy entry
 * (attributes without one are skipped, as the kernel does with NLA_UNSPEC entries).
 *
 * <p>The only encoder-dependent code is {@link #write}; everything else is plain data, so the
 * dump can move to another message encoder by replacing that one method.
 */
final class PolicyDump {
    private static final int GETPOLICY = netlink_h.CTRL_CMD_GETPOLICY();

    /** One message of the dump. */
    sealed interface Entry permits OpEntry, AttrEntry {
    }

    /** CTRL_ATTR_OP_POLICY of one command; an absent index is not written. */
    record OpEntry(int cmd, Optional<Integer> doPolicy, Optional<Integer> dumpPolicy) implements Entry {
    }

    /** CTRL_ATTR_POLICY with one attribute of one policy. */
    record AttrEntry(int policyIndex, int attr, AttrPolicy policy) implements Entry {
    }

    private final int familyId;
    private final List<Entry> entries;

    private PolicyDump(int familyId, List<Entry> entries) {
        this.familyId = familyId;
        this.entries = List.copyOf(entries);
    }

    /**
     * ctrl_dumppolicy_start for a family (found by the caller) and, with CTRL_ATTR_OP, one of its
     * commands: ENOENT when the family lacks the command, ENODATA when nothing has a policy.
     */
    static PolicyDump start(int familyId, FakeGenlFamily family, Integer singleCmd) {
        List<FakeGenlFamily.Op> ops = family.ops();
        if (singleCmd != null) {
            ops = ops.stream().filter(o -> o.cmd() == singleCmd).toList();
            if (ops.isEmpty()) {
                throw KernelError.of(Errno.ENOENT, family.name() + " has no command " + singleCmd);
            }
        }
        List<AttrPolicy[]> policies = new ArrayList<>();
        List<Entry> opEntries = new ArrayList<>();
        for (FakeGenlFamily.Op op : ops) {
            Optional<Integer> doIdx = Optional.empty();
            Optional<Integer> dumpIdx = Optional.empty();
            if (op.policy() != null && op.doit() != null) {
                doIdx = Optional.of(indexOf(policies, op.policy()));
            }
            if (op.policy() != null && op.dumpit() != null && family.validatesDump(op)) {
                dumpIdx = Optional.of(indexOf(policies, op.policy()));
            }
            if (doIdx.isPresent() || dumpIdx.isPresent()) {
                opEntries.add(new OpEntry(op.cmd(), doIdx, dumpIdx));
            }
        }
        if (policies.isEmpty()) {
            throw KernelError.of(Errno.ENODATA, family.name() + " has no attribute policy");
        }
        List<Entry> entries = new ArrayList<>(opEntries);
        for (int idx = 0; idx < policies.size(); idx++) {
            AttrPolicy[] p = policies.get(idx);
            for (int attr = 0; attr < p.length; attr++) {
                if (p[attr] != null && p[attr].kind() != AttrPolicy.Kind.UNSPEC) {
                    entries.add(new AttrEntry(idx, attr, p[attr]));
                }
            }
        }
        return new PolicyDump(familyId, entries);
    }

    /** add_policy: the same array (and so the same maxattr) is listed once. */
    private static int indexOf(List<AttrPolicy[]> policies, AttrPolicy[] policy) {
        for (int i = 0; i < policies.size(); i++) {
            if (policies.get(i) == policy) {
                return i;
            }
        }
        policies.add(policy);
        return policies.size() - 1;
    }

    List<Entry> entries() {
        return entries;
    }

    /**
     * One ctrl_dumppolicy call: adds whole messages from {@code cursor[0]} on while they fit and
     * returns the datagram's length, so NLMSG_DONE always follows in a datagram of its own; 0 when
     * nothing was left.
     */
    int dump(long[] cursor, DumpWriter out) {
        int i = (int) cursor[0];
        while (i < entries.size()) {
            Entry e = entries.get(i);
            if (!out.add(GETPOLICY, w -> write(w, familyId, e))) {
                break;
            }
            i++;
        }
        cursor[0] = i;
        return out.length();
    }

    /** The attributes of one message (after the genl header). */
    static void write(SkBuff w, int familyId, Entry e) {
        w.putU16(UapiGenlCtrlAttribute.CTRL_ATTR_FAMILY_ID, familyId);
        switch (e) {
            case OpEntry op -> {
                int pol = w.beginNested(netlink_h.NLA_F_NESTED() | UapiGenlCtrlAttribute.CTRL_ATTR_OP_POLICY.number());
                int cmd = w.beginNested(netlink_h.NLA_F_NESTED() | op.cmd());
                op.doPolicy().ifPresent(idx -> w.putU32(UapiGenlCtrlAttribute.CTRL_ATTR_POLICY_DO, idx));
                op.dumpPolicy().ifPresent(idx -> w.putU32(UapiGenlCtrlAttribute.CTRL_ATTR_POLICY_DUMP, idx));
                w.endNested(cmd);
                w.endNested(pol);
            }
            case AttrEntry a -> {
                int pol = w.beginNested(netlink_h.NLA_F_NESTED() | UapiGenlCtrlAttribute.CTRL_ATTR_POLICY.number());
                int idx = w.beginNested(netlink_h.NLA_F_NESTED() | a.policyIndex());
                a.policy().writeNest(w, a.attr());
                w.endNested(idx);
                w.endNested(pol);
            }
        }
    }
}
