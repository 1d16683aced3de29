package org.vdpactl.netlink;

import java.lang.foreign.ValueLayout;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.netlink.genlmsghdr;
import org.vdpactl.ffi.gen.netlink.netlink_h;
import org.vdpactl.ffi.gen.netlink.nlattr;
import org.vdpactl.ffi.gen.netlink.nlmsgerr;
import org.vdpactl.ffi.gen.netlink.nlmsghdr;

/**
 * The netlink ABI numbers and field layouts the codec uses, all taken from the generated bindings.
 *
 * <p>The codec reads and writes messages at arbitrary positions of heap or native buffers, so the
 * field layouts here are the generated ones with their alignment relaxed to one byte; the offsets
 * are the generated {@code $offset()} values. Nothing here is a hand-written struct offset.
 */
public final class NetlinkAbi {
    // message header
    public static final int NLMSG_HDRLEN = netlink_h.NLMSG_HDRLEN();
    public static final int NLMSG_ALIGNTO = netlink_h.NLMSG_ALIGNTO();
    public static final int GENL_HDRLEN = (int) netlink_h.GENL_HDRLEN();
    public static final int NLA_HDRLEN = netlink_h.NLA_HDRLEN();
    public static final int NLA_ALIGNTO = netlink_h.NLA_ALIGNTO();
    public static final int NLMSGERR_SIZE = (int) nlmsgerr.sizeof();

    // message types
    public static final int NLMSG_NOOP = netlink_h.NLMSG_NOOP();
    public static final int NLMSG_ERROR = netlink_h.NLMSG_ERROR();
    public static final int NLMSG_DONE = netlink_h.NLMSG_DONE();
    public static final int NLMSG_OVERRUN = netlink_h.NLMSG_OVERRUN();
    public static final int NLMSG_MIN_TYPE = netlink_h.NLMSG_MIN_TYPE();

    // message flags
    public static final int NLM_F_REQUEST = netlink_h.NLM_F_REQUEST();
    public static final int NLM_F_MULTI = netlink_h.NLM_F_MULTI();
    public static final int NLM_F_ACK = netlink_h.NLM_F_ACK();
    public static final int NLM_F_ECHO = netlink_h.NLM_F_ECHO();
    public static final int NLM_F_DUMP_INTR = netlink_h.NLM_F_DUMP_INTR();
    public static final int NLM_F_ROOT = netlink_h.NLM_F_ROOT();
    public static final int NLM_F_MATCH = netlink_h.NLM_F_MATCH();
    public static final int NLM_F_DUMP = netlink_h.NLM_F_DUMP();
    public static final int NLM_F_CAPPED = netlink_h.NLM_F_CAPPED();
    public static final int NLM_F_ACK_TLVS = netlink_h.NLM_F_ACK_TLVS();

    // attribute type bits
    public static final int NLA_F_NESTED = netlink_h.NLA_F_NESTED();
    public static final int NLA_F_NET_BYTEORDER = netlink_h.NLA_F_NET_BYTEORDER();
    public static final int NLA_TYPE_MASK = netlink_h.NLA_TYPE_MASK();

    // extended ACK
    public static final int NLMSGERR_ATTR_MSG = netlink_h.NLMSGERR_ATTR_MSG();
    public static final int NLMSGERR_ATTR_OFFS = netlink_h.NLMSGERR_ATTR_OFFS();
    public static final int NLMSGERR_ATTR_COOKIE = netlink_h.NLMSGERR_ATTR_COOKIE();
    public static final int NLMSGERR_ATTR_POLICY = netlink_h.NLMSGERR_ATTR_POLICY();
    public static final int NLMSGERR_ATTR_MISS_TYPE = netlink_h.NLMSGERR_ATTR_MISS_TYPE();
    public static final int NLMSGERR_ATTR_MISS_NEST = netlink_h.NLMSGERR_ATTR_MISS_NEST();

    // socket level
    public static final int AF_NETLINK = libc_h.AF_NETLINK();
    public static final int SOCK_RAW = libc_h.SOCK_RAW();
    public static final int SOCK_CLOEXEC = libc_h.SOCK_CLOEXEC();
    public static final int NETLINK_GENERIC = netlink_h.NETLINK_GENERIC();
    public static final int SOL_NETLINK = netlink_h.SOL_NETLINK();
    public static final int NETLINK_EXT_ACK = netlink_h.NETLINK_EXT_ACK();
    public static final int NETLINK_CAP_ACK = netlink_h.NETLINK_CAP_ACK();
    public static final int MSG_PEEK = libc_h.MSG_PEEK();
    public static final int MSG_TRUNC = libc_h.MSG_TRUNC();
    public static final int MSG_DONTWAIT = libc_h.MSG_DONTWAIT();
    public static final int POLLIN = libc_h.POLLIN();
    public static final int POLLERR = libc_h.POLLERR();

    // generic netlink controller (its attributes, typed: UapiGenlCtrlAttribute)
    public static final int GENL_ID_CTRL = netlink_h.GENL_ID_CTRL();
    public static final int GENL_MIN_ID = netlink_h.GENL_MIN_ID();
    public static final int GENL_ADMIN_PERM = netlink_h.GENL_ADMIN_PERM();
    public static final int GENL_CMD_CAP_DO = netlink_h.GENL_CMD_CAP_DO();
    public static final int GENL_CMD_CAP_DUMP = netlink_h.GENL_CMD_CAP_DUMP();
    public static final int GENL_CMD_CAP_HASPOL = netlink_h.GENL_CMD_CAP_HASPOL();
    public static final int CTRL_CMD_NEWFAMILY = netlink_h.CTRL_CMD_NEWFAMILY();
    public static final int CTRL_CMD_GETFAMILY = netlink_h.CTRL_CMD_GETFAMILY();
    public static final int CTRL_CMD_GETPOLICY = netlink_h.CTRL_CMD_GETPOLICY();

    // policy description inside NLMSGERR_ATTR_POLICY
    public static final int NL_POLICY_TYPE_ATTR_TYPE = netlink_h.NL_POLICY_TYPE_ATTR_TYPE();
    public static final int NL_POLICY_TYPE_ATTR_MIN_VALUE_S = netlink_h.NL_POLICY_TYPE_ATTR_MIN_VALUE_S();
    public static final int NL_POLICY_TYPE_ATTR_MAX_VALUE_S = netlink_h.NL_POLICY_TYPE_ATTR_MAX_VALUE_S();
    public static final int NL_POLICY_TYPE_ATTR_MIN_VALUE_U = netlink_h.NL_POLICY_TYPE_ATTR_MIN_VALUE_U();
    public static final int NL_POLICY_TYPE_ATTR_MAX_VALUE_U = netlink_h.NL_POLICY_TYPE_ATTR_MAX_VALUE_U();
    public static final int NL_POLICY_TYPE_ATTR_MIN_LENGTH = netlink_h.NL_POLICY_TYPE_ATTR_MIN_LENGTH();
    public static final int NL_POLICY_TYPE_ATTR_MAX_LENGTH = netlink_h.NL_POLICY_TYPE_ATTR_MAX_LENGTH();
    public static final int NL_POLICY_TYPE_ATTR_POLICY_IDX = netlink_h.NL_POLICY_TYPE_ATTR_POLICY_IDX();
    public static final int NL_POLICY_TYPE_ATTR_POLICY_MAXTYPE = netlink_h.NL_POLICY_TYPE_ATTR_POLICY_MAXTYPE();
    public static final int NL_POLICY_TYPE_ATTR_MASK = netlink_h.NL_POLICY_TYPE_ATTR_MASK();
    public static final int NL_ATTR_TYPE_U8 = netlink_h.NL_ATTR_TYPE_U8();
    public static final int NL_ATTR_TYPE_U16 = netlink_h.NL_ATTR_TYPE_U16();
    public static final int NL_ATTR_TYPE_U32 = netlink_h.NL_ATTR_TYPE_U32();
    public static final int NL_ATTR_TYPE_U64 = netlink_h.NL_ATTR_TYPE_U64();
    public static final int NL_ATTR_TYPE_BINARY = netlink_h.NL_ATTR_TYPE_BINARY();
    public static final int NL_ATTR_TYPE_STRING = netlink_h.NL_ATTR_TYPE_STRING();
    public static final int NL_ATTR_TYPE_NUL_STRING = netlink_h.NL_ATTR_TYPE_NUL_STRING();
    public static final int NL_ATTR_TYPE_FLAG = netlink_h.NL_ATTR_TYPE_FLAG();
    public static final int NL_ATTR_TYPE_NESTED = netlink_h.NL_ATTR_TYPE_NESTED();

    // field layouts (generated, alignment relaxed) and offsets
    static final ValueLayout.OfInt NLMSG_LEN = nlmsghdr.nlmsg_len$layout().withByteAlignment(1);
    static final long NLMSG_LEN_OFFSET = nlmsghdr.nlmsg_len$offset();
    static final ValueLayout.OfShort NLMSG_TYPE = nlmsghdr.nlmsg_type$layout().withByteAlignment(1);
    static final long NLMSG_TYPE_OFFSET = nlmsghdr.nlmsg_type$offset();
    static final ValueLayout.OfShort NLMSG_FLAGS = nlmsghdr.nlmsg_flags$layout().withByteAlignment(1);
    static final long NLMSG_FLAGS_OFFSET = nlmsghdr.nlmsg_flags$offset();
    static final ValueLayout.OfInt NLMSG_SEQ = nlmsghdr.nlmsg_seq$layout().withByteAlignment(1);
    static final long NLMSG_SEQ_OFFSET = nlmsghdr.nlmsg_seq$offset();
    static final ValueLayout.OfInt NLMSG_PID = nlmsghdr.nlmsg_pid$layout().withByteAlignment(1);
    static final long NLMSG_PID_OFFSET = nlmsghdr.nlmsg_pid$offset();

    static final ValueLayout.OfByte GENL_CMD = genlmsghdr.cmd$layout().withByteAlignment(1);
    static final long GENL_CMD_OFFSET = genlmsghdr.cmd$offset();
    static final ValueLayout.OfByte GENL_VERSION = genlmsghdr.version$layout().withByteAlignment(1);
    static final long GENL_VERSION_OFFSET = genlmsghdr.version$offset();
    static final ValueLayout.OfShort GENL_RESERVED = genlmsghdr.reserved$layout().withByteAlignment(1);
    static final long GENL_RESERVED_OFFSET = genlmsghdr.reserved$offset();

    static final ValueLayout.OfShort NLA_LEN = nlattr.nla_len$layout().withByteAlignment(1);
    static final long NLA_LEN_OFFSET = nlattr.nla_len$offset();
    static final ValueLayout.OfShort NLA_TYPE = nlattr.nla_type$layout().withByteAlignment(1);
    static final long NLA_TYPE_OFFSET = nlattr.nla_type$offset();

    static final ValueLayout.OfInt NLMSGERR_ERROR = nlmsgerr.error$layout().withByteAlignment(1);
    static final long NLMSGERR_ERROR_OFFSET = nlmsgerr.error$offset();
    static final long NLMSGERR_MSG_OFFSET = nlmsgerr.msg$offset();

    private NetlinkAbi() {
    }

    /** NLMSG_ALIGN. */
    public static int nlmsgAlign(int len) {
        return (len + NLMSG_ALIGNTO - 1) & ~(NLMSG_ALIGNTO - 1);
    }

    /** NLA_ALIGN. */
    public static int nlaAlign(int len) {
        return (len + NLA_ALIGNTO - 1) & ~(NLA_ALIGNTO - 1);
    }

    /** "REQUEST|ACK|0x400" style rendering of message flags, for logs and error texts. */
    public static String flagNames(int flags) {
        StringBuilder sb = new StringBuilder();
        int rest = flags & 0xFFFF;
        rest = appendFlag(sb, rest, NLM_F_REQUEST, "REQUEST");
        rest = appendFlag(sb, rest, NLM_F_MULTI, "MULTI");
        rest = appendFlag(sb, rest, NLM_F_ACK, "ACK");
        rest = appendFlag(sb, rest, NLM_F_ECHO, "ECHO");
        rest = appendFlag(sb, rest, NLM_F_DUMP_INTR, "DUMP_INTR");
        rest = appendFlag(sb, rest, NLM_F_DUMP, "DUMP");
        if (rest != 0) {
            sb.append(sb.isEmpty() ? "" : "|").append("0x").append(Integer.toHexString(rest));
        }
        return sb.isEmpty() ? "0" : sb.toString();
    }

    private static int appendFlag(StringBuilder sb, int rest, int flag, String name) {
        if ((rest & flag) == flag) {
            sb.append(sb.isEmpty() ? "" : "|").append(name);
            return rest & ~flag;
        }
        return rest;
    }
}
