package org.vdpactl.fake.vfs;

import java.lang.foreign.MemorySegment;

import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;

/**
 * The file operations behind one open file of the fake kernel ({@code struct file_operations} in
 * spirit, the way gVisor's sentry models files): the {@link FakeProcess} does the VFS part (fd lookup,
 * access-mode checks, generic ioctls) and then calls these. Every default answers what Linux
 * answers for a file that lacks the op, so an implementation overrides only what its file kind has.
 *
 * <p>Failures are thrown as {@link KernelError} (errno plus an internal reason for logs); the
 * process turns them into {@link org.vdpactl.sys.SyscallException}s named after the call. An
 * implementation may also throw {@code SyscallException} directly.
 *
 * <p>{@code caller} is the process making the call (its identity is the "mm" of owner checks);
 * {@code file} is the open file description (flags such as O_NONBLOCK live there and are shared
 * across fork).
 */
public interface FakeFile {

    /** A short kind name for messages and /proc-like listings ("eventfd", "pipe", "memfd", "vhost-vdpa", "netlink"). */
    String kind();

    /**
     * What the file is, for a person reading a leak report or an fd listing: the path of a device node
     * ("/dev/vhost-vdpa-0"), "netlink socket (NETLINK_GENERIC)", or the {@link #kind()} of an anonymous file.
     */
    default String describe() {
        return kind();
    }

    /** read(2). No read op → EINVAL (the VFS has already checked the fd is readable). */
    default long read(FakeProcess caller, OpenFile file, MemorySegment buf) {
        throw KernelError.of(Errno.EINVAL, kind() + " has no read op");
    }

    /** write(2). No write op → EINVAL. */
    default long write(FakeProcess caller, OpenFile file, MemorySegment buf) {
        throw KernelError.of(Errno.EINVAL, kind() + " has no write op");
    }

    /** ioctl(2) after the VFS-generic commands. No ioctl op → ENOTTY. */
    default int ioctl(FakeProcess caller, OpenFile file, long request, MemorySegment arg) {
        throw KernelError.of(Errno.ENOTTY, kind() + " has no ioctl op");
    }

    /**
     * poll(2) on this file: returns the ready mask filtered by {@code events | POLLERR | POLLHUP}
     * (0 when the timeout expired). Without a poll op the VFS reports readable and writable at once.
     */
    default int poll(FakeProcess caller, OpenFile file, int events, int timeoutMillis) {
        return KernelConstants.defaultPollMask() & (events | libc_h.POLLERR() | libc_h.POLLHUP());
    }

    /** mmap(2) of this file (length already page-rounded, offset page-aligned). No mmap op → ENODEV. */
    default FakeMapping mmap(FakeProcess caller, OpenFile file, long length, int prot, int flags, long offset) {
        throw KernelError.of(Errno.ENODEV, kind() + " has no mmap op");
    }

    /** ftruncate(2). Anything but a regular file → EINVAL. */
    default void ftruncate(FakeProcess caller, OpenFile file, long length) {
        throw KernelError.of(Errno.EINVAL, kind() + " is not a regular file");
    }

    /** bind(2). Not a socket → ENOTSOCK. */
    default void bind(FakeProcess caller, OpenFile file, MemorySegment addr) {
        throw KernelError.of(KernelConstants.ENOTSOCK, kind() + " is not a socket");
    }

    /** getsockname(2). Not a socket → ENOTSOCK. */
    default int getsockname(FakeProcess caller, OpenFile file, MemorySegment addr) {
        throw KernelError.of(KernelConstants.ENOTSOCK, kind() + " is not a socket");
    }

    /** setsockopt(2). Not a socket → ENOTSOCK. */
    default void setsockopt(FakeProcess caller, OpenFile file, int level, int name, int value) {
        throw KernelError.of(KernelConstants.ENOTSOCK, kind() + " is not a socket");
    }

    /** sendto(2). Not a socket → ENOTSOCK. */
    default long sendto(FakeProcess caller, OpenFile file, MemorySegment buf, int flags, MemorySegment addr) {
        throw KernelError.of(KernelConstants.ENOTSOCK, kind() + " is not a socket");
    }

    /** recvfrom(2). Not a socket → ENOTSOCK. */
    default long recvfrom(FakeProcess caller, OpenFile file, MemorySegment buf, int flags) {
        throw KernelError.of(KernelConstants.ENOTSOCK, kind() + " is not a socket");
    }

    /** fstat-like description; anonymous inodes by default. */
    default FileStat stat() {
        return new FileStat(FileStat.Type.OTHER, 0600, 0, 0, 0, 0);
    }

    /** The last reference to the open file description went away (close of the last fd, process exit). */
    default void release() {
    }
}
