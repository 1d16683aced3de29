package org.vdpactl.abi;

import static org.vdpactl.abi.NlaType.NESTED;
import static org.vdpactl.abi.NlaType.NUL_STRING;
import static org.vdpactl.abi.NlaType.STRING;
import static org.vdpactl.abi.NlaType.U16;
import static org.vdpactl.abi.NlaType.U32;

import org.vdpactl.ffi.gen.netlink.netlink_h;

/**
 * The attributes of the generic netlink controller (nlctrl, linux/genetlink.h) vdpactl sends and reads: the
 * top-level {@code CTRL_ATTR_*} and the ones nested in an op ({@code CTRL_ATTR_OP_*}), a multicast group
 * ({@code CTRL_ATTR_MCAST_GRP_*}) and an op's policy indexes ({@code CTRL_ATTR_POLICY_DO/DUMP}), each with its
 * wire type from net/netlink/genetlink.c ({@code ctrl_fill_info}, {@code ctrl_dumppolicy_put_op}) and, for the
 * request attributes, its {@code ctrl_policy_family} / {@code ctrl_policy_policy} entry.
 */
public enum UapiGenlCtrlAttribute implements NetlinkAttribute {
    CTRL_ATTR_FAMILY_ID(netlink_h.CTRL_ATTR_FAMILY_ID(), U16, NlaPolicy.of(U16)),
    /** {@code .len = GENL_NAMSIZ - 1}. */
    CTRL_ATTR_FAMILY_NAME(netlink_h.CTRL_ATTR_FAMILY_NAME(), NUL_STRING, NlaPolicy.nulString(netlink_h.GENL_NAMSIZ() - 1)),
    CTRL_ATTR_VERSION(netlink_h.CTRL_ATTR_VERSION(), U32, null),
    CTRL_ATTR_HDRSIZE(netlink_h.CTRL_ATTR_HDRSIZE(), U32, null),
    CTRL_ATTR_MAXATTR(netlink_h.CTRL_ATTR_MAXATTR(), U32, null),
    CTRL_ATTR_OPS(netlink_h.CTRL_ATTR_OPS(), NESTED, null),
    CTRL_ATTR_MCAST_GROUPS(netlink_h.CTRL_ATTR_MCAST_GROUPS(), NESTED, null),
    CTRL_ATTR_POLICY(netlink_h.CTRL_ATTR_POLICY(), NESTED, null),
    CTRL_ATTR_OP_POLICY(netlink_h.CTRL_ATTR_OP_POLICY(), NESTED, null),
    /** Only in {@code ctrl_policy_policy} (CTRL_CMD_GETPOLICY). */
    CTRL_ATTR_OP(netlink_h.CTRL_ATTR_OP(), U32, NlaPolicy.of(U32)),
    CTRL_ATTR_OP_ID(netlink_h.CTRL_ATTR_OP_ID(), U32, null),
    CTRL_ATTR_OP_FLAGS(netlink_h.CTRL_ATTR_OP_FLAGS(), U32, null),
    CTRL_ATTR_MCAST_GRP_NAME(netlink_h.CTRL_ATTR_MCAST_GRP_NAME(), STRING, null),
    CTRL_ATTR_MCAST_GRP_ID(netlink_h.CTRL_ATTR_MCAST_GRP_ID(), U32, null),
    CTRL_ATTR_POLICY_DO(netlink_h.CTRL_ATTR_POLICY_DO(), U32, null),
    CTRL_ATTR_POLICY_DUMP(netlink_h.CTRL_ATTR_POLICY_DUMP(), U32, null);

    private final int number;
    private final NlaType type;
    private final NlaPolicy requestPolicy;

    UapiGenlCtrlAttribute(int number, NlaType type, NlaPolicy requestPolicy) {
        this.number = number;
        this.type = type;
        this.requestPolicy = requestPolicy;
    }

    @Override
    public String constantName() {
        return name();
    }

    @Override
    public int number() {
        return number;
    }

    @Override
    public NlaType type() {
        return type;
    }

    /** The controller's policy entry for this attribute, or null when no nlctrl request carries it. */
    @Override
    public NlaPolicy requestPolicy() {
        return requestPolicy;
    }
}
