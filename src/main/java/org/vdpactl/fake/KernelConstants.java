package org.vdpactl.fake;

import org.vdpactl.ffi.gen.libc.libc_h;

/**
 * Linux constants the fake kernel needs that the generated libc bindings do not carry (x86_64 and
 * arm64 share every value here). Everything the bindings do have is taken from them.
 */
public final class KernelConstants {
    /** errno: not a socket. */
    public static final int ENOTSOCK = 88;
    /** errno: too many open files. */
    public static final int EMFILE = 24;
    /** errno: is a directory. */
    public static final int EISDIR = 21;
    /** errno: broken pipe. */
    public static final int EPIPE = 32;
    /** errno: socket type not supported. */
    public static final int ESOCKTNOSUPPORT = 94;
    /** errno: transport endpoint is not connected. */
    public static final int ENOTCONN = 107;

    public static final int O_ACCMODE = 3;
    public static final int MAP_NORESERVE = 0x4000;
    public static final int MAP_FIXED = 0x10;
    public static final int MAP_TYPE = 0x0f;

    /** VFS-generic ioctls (include/uapi/asm-generic/ioctls.h). */
    public static final long FIONBIO = 0x5421;
    public static final long FIONCLEX = 0x5450;
    public static final long FIOCLEX = 0x5451;
    public static final long FIOASYNC = 0x5452;

    public static final int POLLRDNORM = 0x040;
    public static final int POLLWRNORM = 0x100;

    public static final int AF_UNIX = 1;
    public static final int AF_INET = 2;
    public static final int AF_INET6 = 10;
    /** AF_MAX of Linux 6.12: domains at or above it answer EAFNOSUPPORT before any lookup. */
    public static final int AF_MAX = 46;
    public static final int SOCK_TYPE_MASK = 0xf;

    public static final long PAGE_SIZE = 4096;

    /** MFD_* flags memfd_create accepts (MFD_CLOEXEC, MFD_ALLOW_SEALING, MFD_HUGETLB, MFD_NOEXEC_SEAL, MFD_EXEC). */
    public static final int MFD_HUGETLB = 0x4;
    public static final int MFD_NOEXEC_SEAL = 0x8;
    public static final int MFD_EXEC = 0x10;
    /** MFD_HUGE_* size bits. */
    public static final int MFD_HUGE_MASK = 0x3f << 26;

    /** O_DIRECT as pipe2 accepts it (packet mode). */
    public static final int O_DIRECT = 0x4000;

    /** eventfd's counter limit: ULLONG_MAX − 1. */
    public static final long EVENTFD_MAX = 0xFFFF_FFFF_FFFF_FFFEL;

    private KernelConstants() {
    }

    /** The VFS default poll mask for files without a poll op: readable and writable. */
    public static int defaultPollMask() {
        return libc_h.POLLIN() | libc_h.POLLOUT() | POLLRDNORM | POLLWRNORM;
    }
}
