package org.vdpactl.netlink;

import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;

/**
 * The kernel (real or fake) refused a netlink request: an {@code NLMSG_ERROR} with a negative
 * errno, or a transport failure around it. Carries the errno like every {@link SyscallException},
 * plus the extended ACK the kernel attached (message text, offset of the offending attribute,
 * policy description) and an optional hint that the layer above added ("CAP_NET_ADMIN is needed").
 */
public class NetlinkException extends SyscallException {
    private final ExtAck extack;
    private final String hint;

    public NetlinkException(String operation, int errno, ExtAck extack) {
        this(operation, errno, extack, null, null);
    }

    public NetlinkException(String operation, int errno, ExtAck extack, String hint, Throwable cause) {
        super(operation, errno, null, cause);
        this.extack = extack == null ? ExtAck.NONE : extack;
        this.hint = hint;
    }

    @Override
    protected String composeMessage() {
        StringBuilder sb = new StringBuilder(operation()).append(": ").append(Errno.describe(errno()));
        if (extack.message() != null) {
            sb.append(": ").append(extack.message());
        }
        if (extack.offset() != null) {
            sb.append(" (attribute at byte ").append(extack.offset()).append(" of the request");
            String policy = extack.policyDescription();
            sb.append(policy.isEmpty() ? ")" : "; policy " + policy + ")");
        }
        if (hint != null && !hint.isEmpty()) {
            sb.append(" [").append(hint).append(']');
        }
        return sb.toString();
    }

    /** The extended ACK the kernel sent (empty when it sent none). */
    public ExtAck extack() {
        return extack;
    }

    /** The kernel's NLMSGERR_ATTR_MSG text, or null. */
    public String extackMessage() {
        return extack.message();
    }

    /** NLMSGERR_ATTR_OFFS: byte offset of the offending attribute from the start of the request, or null. */
    public Integer offset() {
        return extack.offset();
    }

    /** What the layer above explains about this error, or null. */
    public String hint() {
        return hint;
    }

    /** A copy with another operation name and hint; the errno and extack stay. */
    public NetlinkException withContext(String newOperation, String newHint) {
        NetlinkException e = new NetlinkException(newOperation, errno(), extack, newHint, getCause());
        e.setStackTrace(getStackTrace());
        return e;
    }

    @Override
    public SyscallException withOperation(String newOperation) {
        return withContext(newOperation, hint);
    }
}
