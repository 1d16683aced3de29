package org.vdpactl.fake.vfs;

import org.vdpactl.fake.mem.HostMemory;
import org.vdpactl.ffi.gen.libc.libc_h;

/**
 * The Linux constants the fake kernel uses, in one place. Values come from the generated libc
 * bindings; the few that no userspace header defines as a macro (memfd's newer flags, the eventfd
 * counter limit, the socket type mask) are written here with their kernel source.
 */
public final class KernelConstants {
    /** errno: not a socket. */
    public static final int ENOTSOCK = libc_h.ENOTSOCK();
    /** errno: too many open files. */
    public static final int EMFILE = libc_h.EMFILE();
    /** errno: is a directory. */
    public static final int EISDIR = libc_h.EISDIR();
    /** errno: broken pipe. */
    public static final int EPIPE = libc_h.EPIPE();
    /** errno: socket type not supported. */
    public static final int ESOCKTNOSUPPORT = libc_h.ESOCKTNOSUPPORT();
    /** errno: transport endpoint is not connected. */
    public static final int ENOTCONN = libc_h.ENOTCONN();

    public static final int O_ACCMODE = libc_h.O_ACCMODE();
    public static final int MAP_NORESERVE = libc_h.MAP_NORESERVE();
    public static final int MAP_FIXED = libc_h.MAP_FIXED();
    public static final int MAP_TYPE = libc_h.MAP_TYPE();

    /** VFS-generic ioctls (include/uapi/asm-generic/ioctls.h). */
    public static final long FIONBIO = libc_h.FIONBIO();
    public static final long FIONCLEX = libc_h.FIONCLEX();
    public static final long FIOCLEX = libc_h.FIOCLEX();
    public static final long FIOASYNC = libc_h.FIOASYNC();

    public static final int POLLRDNORM = libc_h.POLLRDNORM();
    public static final int POLLWRNORM = libc_h.POLLWRNORM();

    public static final int AF_UNIX = libc_h.AF_UNIX();
    public static final int AF_INET = libc_h.AF_INET();
    public static final int AF_INET6 = libc_h.AF_INET6();
    /** AF_MAX of Linux 6.12: domains at or above it answer EAFNOSUPPORT before any lookup. */
    public static final int AF_MAX = libc_h.AF_MAX();
    public static final int SOCK_TYPE_MASK = 0xf;

    public static final long PAGE_SIZE = HostMemory.PAGE_SIZE;

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
