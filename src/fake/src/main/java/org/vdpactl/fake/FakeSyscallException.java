package org.vdpactl.fake;

import org.vdpactl.sys.SyscallException;

/**
 * A failed call on the fake kernel. It reads like the real kernel's failure ("ioctl
 * VHOST_VDPA_SUSPEND: EOPNOTSUPP (Operation not supported)") and additionally carries the fake's
 * internal reason (e.g. why an IOTLB write that surfaced as EFAULT really failed: "UPDATE failed with
 * EEXIST: range overlaps an existing entry").
 */
public final class FakeSyscallException extends SyscallException {
    private final String reason;

    public FakeSyscallException(String operation, int errno, String reason) {
        super(operation, errno, null, null);
        this.reason = reason;
    }

    /** The fake kernel's explanation; never part of what a real kernel would tell. */
    public String reason() {
        return reason;
    }

    @Override
    public FakeSyscallException withOperation(String newOperation) {
        FakeSyscallException e = new FakeSyscallException(newOperation, errno(), reason);
        e.setStackTrace(getStackTrace());
        return e;
    }
}
