package org.vdpactl.sys;

import java.util.OptionalInt;

/**
 * The root of every failure vdpactl's library modules report: catch it to handle whatever a call into vdpactl
 * refused or met, and read {@link #kernelErrno()} where the kernel's answer is behind it. The branches:
 * {@link SyscallException} (a system call failed; device calls throw its {@code VhostException}, netlink calls
 * its {@code NetlinkException}), {@code VhostNodeException} (a name or path that leads to no vhost-vdpa node),
 * {@code MissingBackendFeaturesException}, {@code VhostProtocolException} (the kernel's answer breaks the
 * protocol), {@code IotlbPlanException} (a memory layout that cannot be mapped), {@code ConfigParseException},
 * the rehearsal's {@code CallFailedException}, and the fake's {@code FaultRuleException}.
 *
 * <p>Misuse of the API itself (a null argument, a handle used after close) stays the JDK's
 * {@code NullPointerException} or {@code IllegalStateException}: a bug to fix, not a failure to handle.
 */
public abstract class VdpactlException extends RuntimeException {

    protected VdpactlException(String message) {
        super(message);
    }

    protected VdpactlException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The positive errno of the kernel's answer behind this failure, or empty when none is. */
    public OptionalInt kernelErrno() {
        return OptionalInt.empty();
    }
}
