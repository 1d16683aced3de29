package org.vdpactl.netlink;

import java.util.function.Consumer;
import org.vdpactl.netlink.NetlinkMessage.GenlMessage;

/**
 * The attributes of one generic netlink message as the decoder reads them back: what the codec and reply tests
 * start from, written once so that every such test frames its message alike (a vdpa-family reply header).
 */
public final class WrittenAttributes {
    private WrittenAttributes() {
    }

    /** The attributes {@code body} writes into one message (type 19, genl command 3, version 1), decoded. */
    public static Attributes attrs(Consumer<MessageWriter> body) {
        MessageWriter w = new MessageWriter();
        w.beginMessage(19, 0, 1, 1).genlHeader(3, 1);
        body.accept(w);
        w.endMessage();
        return ((GenlMessage) NetlinkDecoder.decode(w.toByteArray()).getFirst()).attributes();
    }
}
