package org.vdpactl.sys;

import java.util.OptionalInt;

/**
 * A system call failed: the kernel (real or fake) returned -1 and set errno.
 *
 * <p>Carries the operation ("ioctl VHOST_VDPA_SUSPEND", "write IOTLB", "open /dev/vhost-vdpa-0"),
 * the errno number and its symbolic name, so callers can branch on the errno and users see
 * "ioctl VHOST_VDPA_SUSPEND: EOPNOTSUPP (Operation not supported)".
 */
public class SyscallException extends VdpactlException {
    private final String operation;
    private final int errno;
    /** The message {@link #composeMessage} made, on the first {@link #getMessage}. */
    private String composed;

    public SyscallException(String operation, int errno) {
        this(operation, errno, null, null);
    }

    /** With {@code message} null, the message is {@link #composeMessage}'s, made when first asked for. */
    protected SyscallException(String operation, int errno, String message, Throwable cause) {
        super(message, cause);
        this.operation = operation;
        this.errno = errno;
    }

    /**
     * The message. Unless a subclass gave one, it is composed on the first call: most failures are branched on
     * and never shown, and the errno's text comes from a table that costs start-up time to load
     * ({@link Errno#describe}).
     */
    @Override
    public String getMessage() {
        String given = super.getMessage();
        if (given != null) {
            return given;
        }
        String m = composed;
        if (m == null) {
            m = composeMessage();
            composed = m;
        }
        return m;
    }

    /** "operation: ENAME (text)"; a subclass adds what it carries. */
    protected String composeMessage() {
        return operation + ": " + Errno.describe(errno);
    }

    /** What was called, e.g. {@code "ioctl VHOST_GET_FEATURES"}. */
    public String operation() {
        return operation;
    }

    /** The errno: a system call's failure always has one. */
    @Override
    public OptionalInt kernelErrno() {
        return OptionalInt.of(errno);
    }

    /** The positive errno value. */
    public int errno() {
        return errno;
    }

    /** The errno's symbol, e.g. {@code "EBUSY"}. */
    public String errnoName() {
        return Errno.name(errno);
    }

    /** True when this failure carries the given errno. */
    public boolean is(int expectedErrno) {
        return errno == expectedErrno;
    }

    /** A copy that names a more precise operation (the layers above know what the call meant). */
    public SyscallException withOperation(String newOperation) {
        SyscallException e = new SyscallException(newOperation, errno);
        e.setStackTrace(getStackTrace());
        return e;
    }
}
