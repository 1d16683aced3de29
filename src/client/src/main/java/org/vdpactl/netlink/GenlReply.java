package org.vdpactl.netlink;

import java.util.List;
import java.util.Optional;
import org.vdpactl.netlink.NetlinkMessage.GenlMessage;

/**
 * The answer to a successful do-request: the reply messages (none for commands that only ACK)
 * and the extack text of the ACK, which the kernel uses for warnings on success (6.12's
 * DEV_ATTR_SET on a block device answers 0 with "vdpa: vdpa1 device not supported").
 */
public record GenlReply(List<GenlMessage> messages, Optional<String> ackMessage) {
    public GenlReply {
        messages = List.copyOf(messages);
    }

    /** The single reply message of a do-request that returns one. */
    public GenlMessage single() {
        if (messages.size() != 1) {
            throw new NetlinkParseException("expected one reply message, got " + messages.size());
        }
        return messages.getFirst();
    }
}
