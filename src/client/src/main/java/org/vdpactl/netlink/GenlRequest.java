package org.vdpactl.netlink;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * One generic netlink request: what to send and how to name it in errors.
 *
 * @param operation  how errors name the request, e.g. {@code "VDPA_CMD_DEV_NEW vdpa0"}
 * @param familyId   nlmsg_type
 * @param cmd        genl command
 * @param version    genl version
 * @param attributes writes the request attributes (may be null for none)
 * @param timeout    how long to wait for each answer; null = the socket's default
 */
public record GenlRequest(String operation, int familyId, int cmd, int version, Consumer<MessageWriter> attributes,
                          Duration timeout) {

    public static GenlRequest of(String operation, int familyId, int cmd, int version, Consumer<MessageWriter> attributes) {
        return new GenlRequest(operation, familyId, cmd, version, attributes, null);
    }

    public GenlRequest withTimeout(Duration newTimeout) {
        return new GenlRequest(operation, familyId, cmd, version, attributes, newTimeout);
    }
}
