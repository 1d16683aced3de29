package org.vdpactl.fake.errno;

/**
 * An error inside the fake kernel, before it is turned into what userspace sees: an errno and,
 * for netlink, the extack text the real kernel attaches (null when the kernel sends none).
 * The {@code reason} is the fake's own explanation for logs and tests; it never reaches the wire.
 */
public final class KernelError extends RuntimeException {
    private final int errno;
    private final String extack;

    public KernelError(int errno, String extack, String reason) {
        super(reason == null ? (extack == null ? "errno " + errno : extack) : reason, null, false, false);
        this.errno = errno;
        this.extack = extack;
    }

    public static KernelError of(int errno, String reason) {
        return new KernelError(errno, null, reason);
    }

    public static KernelError withExtack(int errno, String extack) {
        return new KernelError(errno, extack, extack);
    }

    public int errno() {
        return errno;
    }

    /** The NLMSGERR_ATTR_MSG text, or null. */
    public String extack() {
        return extack;
    }
}
