package org.vdpactl.fake.netlink;

import static org.vdpactl.ffi.gen.netlink.netlink_h.NLM_F_MULTI;

import java.util.function.Consumer;

/**
 * The datagram a dump step fills ({@code skb} of netlink_dump): messages are added whole or not
 * at all, and never beyond the datagram's capacity, which follows Linux's sizing.
 */
public final class DumpWriter {
    private final SkBuff writer;
    private final int capacity;
    private final int familyId;
    private final int version;
    private final int seq;
    private final int portId;

    DumpWriter(SkBuff writer, int capacity, int familyId, int version, int seq, int portId) {
        this.writer = writer;
        this.capacity = capacity;
        this.familyId = familyId;
        this.version = version;
        this.seq = seq;
        this.portId = portId;
    }

    /**
     * Adds one NLM_F_MULTI message with this genl command; false (and nothing added) when it does
     * not fit: the genlmsg_cancel of a fill that hit -EMSGSIZE.
     */
    public boolean add(int cmd, Consumer<SkBuff> attributes) {
        int mark = writer.size();
        writer.beginMessage(familyId, NLM_F_MULTI(), seq, portId).genlHeader(cmd, version);
        attributes.accept(writer);
        writer.endMessage();
        if (writer.size() > capacity) {
            writer.rollback(mark);
            return false;
        }
        return true;
    }

    /** Bytes in the datagram so far (msg->len). */
    public int length() {
        return writer.size();
    }
}
