package org.vdpactl.fake.netlink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.vdpactl.ffi.gen.netlink.genlmsghdr;

/** A request's {@code struct genlmsghdr} (command, family version, reserved), offsets from the generated bindings. */
public record GenlMsgHeader(int cmd, int version, int reserved) {

    /** Reads the header at {@code off}; the caller checked that GENL_HDRLEN bytes are there. */
    static GenlMsgHeader read(byte[] data, int off) {
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.nativeOrder());
        return new GenlMsgHeader(
                Byte.toUnsignedInt(b.get(off + (int) genlmsghdr.cmd$offset())),
                Byte.toUnsignedInt(b.get(off + (int) genlmsghdr.version$offset())),
                Short.toUnsignedInt(b.getShort(off + (int) genlmsghdr.reserved$offset())));
    }
}
