package org.vdpactl.netlink;

import static org.vdpactl.netlink.NetlinkAbi.NLMSG_FLAGS;
import static org.vdpactl.netlink.NetlinkAbi.NLMSG_FLAGS_OFFSET;
import static org.vdpactl.netlink.NetlinkAbi.NLMSG_LEN;
import static org.vdpactl.netlink.NetlinkAbi.NLMSG_LEN_OFFSET;
import static org.vdpactl.netlink.NetlinkAbi.NLMSG_PID;
import static org.vdpactl.netlink.NetlinkAbi.NLMSG_PID_OFFSET;
import static org.vdpactl.netlink.NetlinkAbi.NLMSG_SEQ;
import static org.vdpactl.netlink.NetlinkAbi.NLMSG_SEQ_OFFSET;
import static org.vdpactl.netlink.NetlinkAbi.NLMSG_TYPE;
import static org.vdpactl.netlink.NetlinkAbi.NLMSG_TYPE_OFFSET;

import java.lang.foreign.MemorySegment;

/**
 * A {@code struct nlmsghdr}: length (header included), type, flags, sequence number, port id.
 * The 16-bit fields are kept unsigned, the 32-bit ones as Java ints (seq and pid are opaque).
 */
public record NetlinkHeader(int length, int type, int flags, int seq, int pid) {

    /** Reads a header at {@code offset} of {@code segment}; the caller checked that 16 bytes are there. */
    public static NetlinkHeader read(MemorySegment segment, long offset) {
        return new NetlinkHeader(
                segment.get(NLMSG_LEN, offset + NLMSG_LEN_OFFSET),
                Short.toUnsignedInt(segment.get(NLMSG_TYPE, offset + NLMSG_TYPE_OFFSET)),
                Short.toUnsignedInt(segment.get(NLMSG_FLAGS, offset + NLMSG_FLAGS_OFFSET)),
                segment.get(NLMSG_SEQ, offset + NLMSG_SEQ_OFFSET),
                segment.get(NLMSG_PID, offset + NLMSG_PID_OFFSET));
    }

    /** Writes this header at {@code offset}. */
    public void write(MemorySegment segment, long offset) {
        segment.set(NLMSG_LEN, offset + NLMSG_LEN_OFFSET, length);
        segment.set(NLMSG_TYPE, offset + NLMSG_TYPE_OFFSET, (short) type);
        segment.set(NLMSG_FLAGS, offset + NLMSG_FLAGS_OFFSET, (short) flags);
        segment.set(NLMSG_SEQ, offset + NLMSG_SEQ_OFFSET, seq);
        segment.set(NLMSG_PID, offset + NLMSG_PID_OFFSET, pid);
    }

    /** The unsigned message length (nlmsg_len is a u32). */
    public long unsignedLength() {
        return Integer.toUnsignedLong(length);
    }

    public boolean hasFlags(int mask) {
        return (flags & mask) == mask;
    }

    @Override
    public String toString() {
        return "nlmsghdr{len=" + unsignedLength() + ", type=" + type + ", flags=" + NetlinkAbi.flagNames(flags)
                + ", seq=" + Integer.toUnsignedString(seq) + ", pid=" + Integer.toUnsignedString(pid) + "}";
    }
}
