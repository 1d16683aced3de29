package org.vdpactl.abi;

import static org.vdpactl.abi.AttributeSpec.reply;
import static org.vdpactl.abi.AttributeSpec.request;
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
    CTRL_ATTR_FAMILY_ID(request(netlink_h.CTRL_ATTR_FAMILY_ID(), U16, NlaPolicy.of(U16))),
    /** {@code .len = GENL_NAMSIZ - 1}. */
    CTRL_ATTR_FAMILY_NAME(request(netlink_h.CTRL_ATTR_FAMILY_NAME(), NUL_STRING, NlaPolicy.nulString(netlink_h.GENL_NAMSIZ() - 1))),
    CTRL_ATTR_VERSION(reply(netlink_h.CTRL_ATTR_VERSION(), U32)),
    CTRL_ATTR_HDRSIZE(reply(netlink_h.CTRL_ATTR_HDRSIZE(), U32)),
    CTRL_ATTR_MAXATTR(reply(netlink_h.CTRL_ATTR_MAXATTR(), U32)),
    CTRL_ATTR_OPS(reply(netlink_h.CTRL_ATTR_OPS(), NESTED)),
    CTRL_ATTR_MCAST_GROUPS(reply(netlink_h.CTRL_ATTR_MCAST_GROUPS(), NESTED)),
    CTRL_ATTR_POLICY(reply(netlink_h.CTRL_ATTR_POLICY(), NESTED)),
    CTRL_ATTR_OP_POLICY(reply(netlink_h.CTRL_ATTR_OP_POLICY(), NESTED)),
    /** Only in {@code ctrl_policy_policy} (CTRL_CMD_GETPOLICY). */
    CTRL_ATTR_OP(request(netlink_h.CTRL_ATTR_OP(), U32, NlaPolicy.of(U32))),
    CTRL_ATTR_OP_ID(reply(netlink_h.CTRL_ATTR_OP_ID(), U32)),
    CTRL_ATTR_OP_FLAGS(reply(netlink_h.CTRL_ATTR_OP_FLAGS(), U32)),
    CTRL_ATTR_MCAST_GRP_NAME(reply(netlink_h.CTRL_ATTR_MCAST_GRP_NAME(), STRING)),
    CTRL_ATTR_MCAST_GRP_ID(reply(netlink_h.CTRL_ATTR_MCAST_GRP_ID(), U32)),
    CTRL_ATTR_POLICY_DO(reply(netlink_h.CTRL_ATTR_POLICY_DO(), U32)),
    CTRL_ATTR_POLICY_DUMP(reply(netlink_h.CTRL_ATTR_POLICY_DUMP(), U32));

    private final AttributeSpec spec;

    UapiGenlCtrlAttribute(AttributeSpec spec) {
        this.spec = spec;
    }

    @Override
    public String constantName() {
        return name();
    }

    /** Its number and wire type; for the request attributes the controller's policy entry. */
    @Override
    public AttributeSpec spec() {
        return spec;
    }
}
