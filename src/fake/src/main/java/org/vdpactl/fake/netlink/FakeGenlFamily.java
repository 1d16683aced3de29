package org.vdpactl.fake.netlink;

import static org.vdpactl.ffi.gen.netlink.netlink_h.*;

import java.util.List;
import java.util.Optional;

/**
 * A generic netlink family of the fake kernel ({@code struct genl_family} with its ops): what
 * nlctrl reports about it and what the genetlink core needs to dispatch a request to it.
 */
public abstract class FakeGenlFamily {

    /** Writes the reply messages of a do-request, one datagram each (genlmsg_reply). */
    public interface Replies {
        /** Starts a reply message (flags 0) with this genl command; the dispatcher ends it. */
        SkBuff reply(int cmd);
    }

    /** A do handler; throws {@link org.vdpactl.fake.errno.KernelError} to fail. */
    @FunctionalInterface
    public interface DoHandler {
        void handle(GenlRequestContext request, Replies replies);
    }

    /**
     * A dump handler ({@code dumpit}): adds messages to {@code out} starting where
     * {@code cursor} says, and returns what a kernel dumpit returns: the bytes written (more
     * may follow), 0 (done) or a negative errno.
     */
    @FunctionalInterface
    public interface DumpHandler {
        int dump(GenlRequestContext request, long[] cursor, DumpWriter out);
    }

    /**
     * One command.
     *
     * @param cmd          genl command
     * @param adminPerm    GENL_ADMIN_PERM
     * @param doit         the do handler, or null
     * @param dumpit       the dump handler, or null
     * @param policy       the attribute policy (index = type), or null for none
     * @param strictDo     validate do-requests strictly (no GENL_DONT_VALIDATE_STRICT)
     * @param strictDump   validate dump requests strictly (no GENL_DONT_VALIDATE_DUMP_STRICT)
     */
    public record Op(int cmd, boolean adminPerm, DoHandler doit, DumpHandler dumpit, AttrPolicy[] policy,
                     boolean strictDo, boolean strictDump) {

        /** The flags nlctrl lists for this op (CTRL_ATTR_OP_FLAGS). */
        public int listedFlags() {
            int f = adminPerm ? GENL_ADMIN_PERM() : 0;
            f |= doit != null ? GENL_CMD_CAP_DO() : 0;
            f |= dumpit != null ? GENL_CMD_CAP_DUMP() : 0;
            return f | (policy != null ? GENL_CMD_CAP_HASPOL() : 0);
        }

        /** The highest attribute type the policy covers. */
        public int maxAttr() {
            return policy == null ? 0 : policy.length - 1;
        }
    }

    /** A multicast group as nlctrl lists it. */
    public record McastGroup(String name, int id) {
    }

    public abstract String name();

    public abstract int version();

    public int headerSize() {
        return 0;
    }

    /** The family's maxattr (what CTRL_ATTR_MAXATTR reports). */
    public abstract int maxAttr();

    /** netnsok: false means ENOENT outside the initial network namespace. */
    public abstract boolean netnsOk();

    /** resv_start_op: commands from this one on get the stricter genl header checks. */
    public abstract int resvStartOp();

    public abstract List<Op> ops();

    public List<McastGroup> mcastGroups() {
        return List.of();
    }

    /** The op for a command in do or dump mode (genl_get_cmd): empty when it lacks that handler. */
    public Optional<Op> op(int cmd, boolean dump) {
        return ops().stream().filter(o -> o.cmd() == cmd && (dump ? o.dumpit() != null : o.doit() != null)).findFirst();
    }

    /**
     * The dump's {@code start} callback (netlink_dump_start runs it before the first dumpit): a
     * {@link org.vdpactl.fake.errno.KernelError} thrown here is answered with NLMSG_ERROR, not
     * NLMSG_DONE. Nothing by default.
     */
    public void startDump(Op op, GenlRequestContext request) {
    }

    /**
     * False for an op whose dump requests are not validated at all (GENL_DONT_VALIDATE_DUMP): the
     * policy dump then lists no dump policy for it.
     */
    public boolean validatesDump(Op op) {
        return true;
    }

    /** The device name a command concerns, for fault-injection rules (null when none). */
    public String faultDevice(GenlRequestContext request) {
        return null;
    }

    /** The name of a command for fault-injection rules ("VDPA_CMD_DEV_NEW"), or null for no hook. */
    public String faultCallName(int cmd) {
        return null;
    }
}
