package org.vdpactl.fake;

import java.util.List;

/**
 * One open file descriptor of a fake process, as the test kit reports a leak: its number, the file it
 * refers to, and the stack that opened it (empty unless the process records open sites).
 *
 * @param fd       the descriptor number
 * @param file     the open file ("/dev/vhost-vdpa-0", "eventfd", "NETLINK_GENERIC socket", ...)
 * @param openedAt the stack of the call that installed it, innermost first
 */
public record OpenFd(int fd, String file, List<StackTraceElement> openedAt) {
    public OpenFd {
        openedAt = List.copyOf(openedAt);
    }
}
