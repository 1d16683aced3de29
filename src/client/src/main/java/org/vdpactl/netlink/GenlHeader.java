package org.vdpactl.netlink;

import static org.vdpactl.netlink.NetlinkAbi.GENL_CMD;
import static org.vdpactl.netlink.NetlinkAbi.GENL_CMD_OFFSET;
import static org.vdpactl.netlink.NetlinkAbi.GENL_RESERVED;
import static org.vdpactl.netlink.NetlinkAbi.GENL_RESERVED_OFFSET;
import static org.vdpactl.netlink.NetlinkAbi.GENL_VERSION;
import static org.vdpactl.netlink.NetlinkAbi.GENL_VERSION_OFFSET;

import java.lang.foreign.MemorySegment;

/** A {@code struct genlmsghdr}: command, family version, reserved (all unsigned). */
public record GenlHeader(int cmd, int version, int reserved) {

    public static GenlHeader read(MemorySegment segment, long offset) {
        return new GenlHeader(
                Byte.toUnsignedInt(segment.get(GENL_CMD, offset + GENL_CMD_OFFSET)),
                Byte.toUnsignedInt(segment.get(GENL_VERSION, offset + GENL_VERSION_OFFSET)),
                Short.toUnsignedInt(segment.get(GENL_RESERVED, offset + GENL_RESERVED_OFFSET)));
    }

    public void write(MemorySegment segment, long offset) {
        segment.set(GENL_CMD, offset + GENL_CMD_OFFSET, (byte) cmd);
        segment.set(GENL_VERSION, offset + GENL_VERSION_OFFSET, (byte) version);
        segment.set(GENL_RESERVED, offset + GENL_RESERVED_OFFSET, (short) reserved);
    }
}
