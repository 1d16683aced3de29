package org.vdpactl.fake.netlink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.vdpactl.ffi.gen.netlink.nlmsghdr;

/**
 * A request's {@code struct nlmsghdr} as the fake's netlink core reads it (nlmsg_hdr), field
 * offsets from the generated bindings. 16-bit fields unsigned; seq and pid are opaque ints.
 */
public record NlMsgHeader(int length, int type, int flags, int seq, int pid) {

    /** Reads the header at {@code off}; the caller checked that NLMSG_HDRLEN bytes are there. */
    static NlMsgHeader read(byte[] data, int off) {
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.nativeOrder());
        return new NlMsgHeader(
                b.getInt(off + (int) nlmsghdr.nlmsg_len$offset()),
                Short.toUnsignedInt(b.getShort(off + (int) nlmsghdr.nlmsg_type$offset())),
                Short.toUnsignedInt(b.getShort(off + (int) nlmsghdr.nlmsg_flags$offset())),
                b.getInt(off + (int) nlmsghdr.nlmsg_seq$offset()),
                b.getInt(off + (int) nlmsghdr.nlmsg_pid$offset()));
    }

    /** nlmsg_len, a u32. */
    public long unsignedLength() {
        return Integer.toUnsignedLong(length);
    }
}
