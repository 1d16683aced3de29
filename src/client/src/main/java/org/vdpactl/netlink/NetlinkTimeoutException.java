package org.vdpactl.netlink;

import java.time.Duration;
import org.vdpactl.sys.Errno;

/** The kernel did not answer a netlink request within the socket's timeout (errno ETIMEDOUT). */
public final class NetlinkTimeoutException extends NetlinkException {
    private final Duration timeout;

    public NetlinkTimeoutException(String operation, Duration timeout) {
        super(operation, Errno.ETIMEDOUT, ExtAck.NONE,
                "no answer from the kernel within " + timeout.toMillis() + " ms", null);
        this.timeout = timeout;
    }

    public Duration timeout() {
        return timeout;
    }
}
