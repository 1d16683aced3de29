package org.vdpactl.fake.netlink;

import static org.vdpactl.abi.UapiGenlCtrlAttribute.*;
import static org.vdpactl.ffi.gen.netlink.netlink_h.*;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.sys.Errno;

/**
 * The generic netlink controller ("nlctrl", id 16) of {@code genetlink.c}: CTRL_CMD_GETFAMILY by
 * name or id, and its dump. The reply carries, in this order, FAMILY_NAME, FAMILY_ID (u16),
 * VERSION, HDRSIZE, MAXATTR, OPS (one nest per op: OP_ID, OP_FLAGS) and MCAST_GROUPS when the
 * family has any, exactly as ctrl_fill_info writes them; its genl header has version 2.
 * CTRL_CMD_GETPOLICY dumps a family's attribute policies ({@link PolicyDump}).
 */
final class NlctrlFamily extends FakeGenlFamily {
    private static final int GETPOLICY = 10;
    private static final int NLCTRL_VERSION = 2;
    /** ctrl_policy_family. */
    private static final AttrPolicy[] POLICY = AttrPolicy.table(CTRL_ATTR_FAMILY_NAME.number(),
            List.of(CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME));
    /** ctrl_policy_policy (FAMILY_ID, FAMILY_NAME, ... OP = 10). */
    private static final AttrPolicy[] POLICY_POLICY = AttrPolicy.table(CTRL_ATTR_OP.number(),
            List.of(CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME, CTRL_ATTR_OP));

    private final FakeGenericNetlink kernel;
    private final List<Op> ops;

    NlctrlFamily(FakeGenericNetlink kernel) {
        this.kernel = kernel;
        this.ops = List.of(
                new Op(CTRL_CMD_GETFAMILY(), false, this::getFamily, this::dumpFamilies, POLICY, false, true),
                new Op(GETPOLICY, false, null, this::dumpPolicy, POLICY_POLICY, true, true));
    }

    @Override
    public String name() {
        return "nlctrl";
    }

    @Override
    public int version() {
        return NLCTRL_VERSION;
    }

    @Override
    public int maxAttr() {
        return 0; // nlctrl has per-op policies only
    }

    @Override
    public boolean netnsOk() {
        return true;
    }

    @Override
    public int resvStartOp() {
        return GETPOLICY + 1;
    }

    @Override
    public List<Op> ops() {
        return ops;
    }

    @Override
    public List<McastGroup> mcastGroups() {
        return List.of(new McastGroup("notify", GENL_ID_CTRL()));
    }

    /** ctrl_getfamily's dump does not validate its request (GENL_DONT_VALIDATE_DUMP). */
    @Override
    public boolean validatesDump(Op op) {
        return op.cmd() != CTRL_CMD_GETFAMILY();
    }

    /** ctrl_dumppolicy_start: its errors are answered with NLMSG_ERROR before any message. */
    @Override
    public void startDump(Op op, GenlRequestContext request) {
        if (op.cmd() == GETPOLICY) {
            policyDump(request);
        }
    }

    private int dumpPolicy(GenlRequestContext r, long[] cursor, DumpWriter out) {
        return policyDump(r).dump(cursor, out);
    }

    /**
     * The family by CTRL_ATTR_FAMILY_ID, else by name (EINVAL with neither, ENOENT when unknown);
     * unlike GETFAMILY, a family that is not netns-aware is found from any namespace.
     */
    private PolicyDump policyDump(GenlRequestContext r) {
        RequestAttributes a = r.attributes();
        Optional<Map.Entry<Integer, FakeGenlFamily>> found;
        if (a.has(CTRL_ATTR_FAMILY_ID)) {
            int id = (int) a.unsigned(CTRL_ATTR_FAMILY_ID);
            found = kernel.familyById(id).map(f -> Map.entry(id, f));
        } else if (a.has(CTRL_ATTR_FAMILY_NAME)) {
            found = kernel.familyByName(a.cString(CTRL_ATTR_FAMILY_NAME));
        } else {
            throw KernelError.of(Errno.EINVAL, "GETPOLICY names no family");
        }
        if (found.isEmpty()) {
            throw KernelError.of(Errno.ENOENT, "no such family");
        }
        Integer cmd = a.has(CTRL_ATTR_OP) ? (int) a.unsigned(CTRL_ATTR_OP) : null;
        return PolicyDump.start(found.get().getKey(), found.get().getValue(), cmd);
    }

    /** ctrl_getfamily. */
    private void getFamily(GenlRequestContext r, Replies out) {
        RequestAttributes a = r.attributes();
        Optional<Map.Entry<Integer, FakeGenlFamily>> found = Optional.empty();
        int err = Errno.EINVAL;
        if (a.has(CTRL_ATTR_FAMILY_ID)) {
            int id = (int) a.unsigned(CTRL_ATTR_FAMILY_ID);
            found = kernel.familyById(id).map(f -> Map.entry(id, f));
            err = Errno.ENOENT;
        }
        if (a.has(CTRL_ATTR_FAMILY_NAME)) {
            found = kernel.familyByName(a.cString(CTRL_ATTR_FAMILY_NAME));
            err = Errno.ENOENT;
        }
        if (found.isEmpty()) {
            throw KernelError.of(err, "no such family");
        }
        if (!found.get().getValue().netnsOk() && !r.socketInInitialNetns()) {
            throw KernelError.of(Errno.ENOENT, "family " + found.get().getValue().name() + " exists only in the initial netns");
        }
        writeFamily(out.reply(CTRL_CMD_NEWFAMILY()), found.get().getKey(), found.get().getValue());
    }

    /** ctrl_dumpfamily: returns 0 when all fitted (NLMSG_DONE then shares the datagram) or -EMSGSIZE. */
    private int dumpFamilies(GenlRequestContext r, long[] cursor, DumpWriter out) {
        int n = 0;
        for (Map.Entry<Integer, FakeGenlFamily> e : kernel.familyList()) {
            if (!e.getValue().netnsOk() && !r.socketInInitialNetns()) {
                continue;
            }
            if (n++ < cursor[0]) {
                continue;
            }
            if (!out.add(CTRL_CMD_NEWFAMILY(), w -> writeFamily(w, e.getKey(), e.getValue()))) {
                cursor[0] = n - 1;
                return -Errno.EMSGSIZE;
            }
        }
        cursor[0] = n;
        return 0;
    }

    /** ctrl_fill_info's attributes. */
    static void writeFamily(SkBuff w, int id, FakeGenlFamily f) {
        w.putString(CTRL_ATTR_FAMILY_NAME, f.name());
        w.putU16(CTRL_ATTR_FAMILY_ID, id);
        w.putU32(CTRL_ATTR_VERSION, f.version());
        w.putU32(CTRL_ATTR_HDRSIZE, f.headerSize());
        w.putU32(CTRL_ATTR_MAXATTR, f.maxAttr());
        List<Op> ops = f.ops();
        if (!ops.isEmpty()) {
            int nest = w.beginNested(CTRL_ATTR_OPS.number());
            for (int i = 0; i < ops.size(); i++) {
                int op = w.beginNested(i + 1);
                w.putU32(CTRL_ATTR_OP_ID, ops.get(i).cmd());
                w.putU32(CTRL_ATTR_OP_FLAGS, ops.get(i).listedFlags());
                w.endNested(op);
            }
            w.endNested(nest);
        }
        List<McastGroup> groups = f.mcastGroups();
        if (!groups.isEmpty()) {
            int nest = w.beginNested(CTRL_ATTR_MCAST_GROUPS.number());
            for (int i = 0; i < groups.size(); i++) {
                int g = w.beginNested(i + 1);
                w.putU32(CTRL_ATTR_MCAST_GRP_ID, groups.get(i).id());
                w.putString(CTRL_ATTR_MCAST_GRP_NAME, groups.get(i).name());
                w.endNested(g);
            }
            w.endNested(nest);
        }
    }
}
