package org.vdpactl.vhost;

import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;

/**
 * A vhost-vdpa call failed. Names the call ("ioctl VHOST_VDPA_SUSPEND", "write IOTLB UPDATE"), the
 * device ("/dev/vhost-vdpa-0"), the errno and, where the user can act on it, a hint:
 * <pre>
 * ioctl VHOST_VDPA_SUSPEND on /dev/vhost-vdpa-0: EOPNOTSUPP (Operation not supported)
 *   hint: the device does not offer VHOST_BACKEND_F_SUSPEND: the parent driver has no suspend op; ...
 * </pre>
 * Callers branch on {@link #errno()} / {@link #is(int)} as for any {@link SyscallException}.
 */
public class VhostException extends SyscallException {
    private final String device;
    private final String hint;

    public VhostException(String operation, String device, int errno, String hint) {
        super(operation, errno, message(operation, device, errno, hint), null);
        this.device = device;
        this.hint = hint;
    }

    /** Wraps a seam failure, keeping its errno and stack. */
    public static VhostException from(SyscallException e, String operation, String device, String hint) {
        VhostException v = new VhostException(operation, device, e.errno(), hint);
        v.setStackTrace(e.getStackTrace());
        return v;
    }

    private static String message(String operation, String device, int errno, String hint) {
        String base = operation + " on " + device + ": " + Errno.describe(errno);
        return hint == null ? base : base + "\n  hint: " + hint;
    }

    /** The device label (node path or the label given to {@code fromFd}). */
    public String device() {
        return device;
    }

    /** What the user can do about it, or null when there is nothing specific to say. */
    public String hint() {
        return hint;
    }

    @Override
    public SyscallException withOperation(String newOperation) {
        VhostException e = new VhostException(newOperation, device, errno(), hint);
        e.setStackTrace(getStackTrace());
        return e;
    }
}
