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

    public SyscallException(String operation, int errno) {
        super(operation + ": " + Errno.describe(errno));
        this.operation = operation;
        this.errno = errno;
    }

    protected SyscallException(String operation, int errno, String message, Throwable cause) {
        super(message, cause);
        this.operation = operation;
        this.errno = errno;
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
