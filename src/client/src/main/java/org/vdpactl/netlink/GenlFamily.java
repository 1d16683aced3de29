package org.vdpactl.netlink;

import static org.vdpactl.abi.UapiGenlCtrlAttribute.*;
import static org.vdpactl.netlink.NetlinkAbi.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A generic netlink family as {@code CTRL_CMD_NEWFAMILY} describes it.
 *
 * @param name       CTRL_ATTR_FAMILY_NAME
 * @param id         CTRL_ATTR_FAMILY_ID: the nlmsg_type of the family's messages
 * @param version    CTRL_ATTR_VERSION
 * @param headerSize CTRL_ATTR_HDRSIZE (user header after the genl header; 0 for vdpa)
 * @param maxAttr    CTRL_ATTR_MAXATTR (37 for vdpa on 6.12, 22 on 6.1)
 * @param ops        CTRL_ATTR_OPS: the commands and their flags
 * @param groups     CTRL_ATTR_MCAST_GROUPS (none for vdpa)
 */
public record GenlFamily(String name, int id, int version, int headerSize, int maxAttr, List<Op> ops, List<McastGroup> groups) {

    /** One command of the family with its GENL_* flags (ADMIN_PERM, CMD_CAP_DO/DUMP/HASPOL). */
    public record Op(int cmd, int flags) {
        public boolean requiresAdmin() {
            return (flags & GENL_ADMIN_PERM) != 0;
        }

        public boolean canDo() {
            return (flags & GENL_CMD_CAP_DO) != 0;
        }

        public boolean canDump() {
            return (flags & GENL_CMD_CAP_DUMP) != 0;
        }
    }

    /** A multicast group. */
    public record McastGroup(String name, int id) {
    }

    public GenlFamily {
        ops = List.copyOf(ops);
        groups = List.copyOf(groups);
    }

    /** Decodes the attributes of a NEWFAMILY message. */
    public static GenlFamily parse(Attributes a) {
        List<Op> ops = new ArrayList<>();
        a.find(CTRL_ATTR_OPS).ifPresent(nest -> {
            for (Attribute op : nest.nested()) {
                Attributes o = op.nested();
                ops.add(new Op(o.unsignedInt(CTRL_ATTR_OP_ID), orZero(o.unsignedIntOrNull(CTRL_ATTR_OP_FLAGS))));
            }
        });
        List<McastGroup> groups = new ArrayList<>();
        a.find(CTRL_ATTR_MCAST_GROUPS).ifPresent(nest -> {
            for (Attribute g : nest.nested()) {
                Attributes o = g.nested();
                groups.add(new McastGroup(o.string(CTRL_ATTR_MCAST_GRP_NAME), o.unsignedInt(CTRL_ATTR_MCAST_GRP_ID)));
            }
        });
        return new GenlFamily(
                a.string(CTRL_ATTR_FAMILY_NAME),
                a.unsignedInt(CTRL_ATTR_FAMILY_ID),
                orZero(a.unsignedIntOrNull(CTRL_ATTR_VERSION)),
                orZero(a.unsignedIntOrNull(CTRL_ATTR_HDRSIZE)),
                orZero(a.unsignedIntOrNull(CTRL_ATTR_MAXATTR)),
                ops, groups);
    }

    private static int orZero(Integer value) {
        return value == null ? 0 : value;
    }

    public Optional<Op> op(int cmd) {
        return ops.stream().filter(o -> o.cmd() == cmd).findFirst();
    }

    /** True when the running kernel knows this command (e.g. DEV_ATTR_SET exists from 6.12 on). */
    public boolean supports(int cmd) {
        return op(cmd).isPresent();
    }
}
