package org.vdpactl.sys;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The syscall seam: the only calls vdpactl makes into the kernel.
 *
 * <p>Two implementations exist: {@link PanamaSyscalls} calls libc through FFM downcall handles and
 * captures {@code errno}; the fake kernel ({@code org.vdpactl.fake}) answers the same calls from an
 * in-process model. Everything above this interface talks only to it, so the same device, netlink
 * and orchestration code runs on both.
 *
 * <p>Conventions shared by both implementations:
 * <ul>
 *   <li>Every failure is a {@link SyscallException} carrying the call name and the errno; nothing
 *       else is thrown for a kernel refusal.</li>
 *   <li>Pointer arguments are {@link MemorySegment}s. {@link MemorySegment#NULL} is a null pointer
 *       (the kernel answers EFAULT where it would dereference it). A segment shorter than the
 *       structure the kernel reads behaves like a pointer to unmapped memory past its end: the
 *       Panama implementation passes the address only, the fake answers EFAULT.</li>
 *   <li>Flags and constants are the kernel's (taken from the generated bindings).</li>
 * </ul>
 * Implementations are thread-safe: the kernel lets several threads of one process call at once,
 * and the orchestration layer does.
 */
public interface Syscalls {

    /** open(2). Returns the new file descriptor. */
    int open(String path, int flags);

    /** close(2). */
    void close(int fd);

    /**
     * ioctl(2) with a pointer argument (or {@link MemorySegment#NULL} for ioctls without one).
     * The request is passed as the kernel's 32-bit command, zero-extended.
     * Returns the non-negative result of the call (0 for nearly all vhost ioctls).
     */
    int ioctl(int fd, long request, MemorySegment arg);

    /** read(2) into the whole of {@code buf}. Returns the byte count. */
    long read(int fd, MemorySegment buf);

    /** write(2) of the whole of {@code buf}. Returns the byte count the kernel reported. */
    long write(int fd, MemorySegment buf);

    /**
     * write(2) to one descriptor by a caller that writes from one thread at a time, such as a device handle under its
     * one-thread guard writing IOTLB messages. What it returns is {@link #write(int, MemorySegment)} on {@code fd};
     * an implementation may keep per-writer state that a call shared by every thread would look up per call (the
     * Panama one keeps its own errno buffer: the IOTLB hot path, one write per message).
     */
    default FdWriter writer(int fd) {
        return buf -> write(fd, buf);
    }

    /** write(2) of the whole of a buffer to the descriptor of {@link #writer(int)}, from one thread at a time. */
    @FunctionalInterface
    interface FdWriter {
        /** As {@link Syscalls#write(int, MemorySegment)}. */
        long write(MemorySegment buf);
    }

    /** socket(2). */
    int socket(int domain, int type, int protocol);

    /** bind(2); {@code addr} holds the whole sockaddr. */
    void bind(int fd, MemorySegment addr);

    /** getsockname(2) into {@code addr}; returns the address length the kernel reported. */
    int getsockname(int fd, MemorySegment addr);

    /** setsockopt(2) with an int value. */
    void setsockopt(int fd, int level, int name, int value);

    /** sendto(2); {@code addr} may be {@link MemorySegment#NULL} for a connected or netlink default peer. */
    long sendto(int fd, MemorySegment buf, int flags, MemorySegment addr);

    /**
     * recvfrom(2) into {@code buf}, no source address. With {@code MSG_TRUNC} in flags the kernel
     * reports the real datagram length even when it exceeds the buffer; callers use that with
     * {@code MSG_PEEK} to size their buffer.
     */
    long recvfrom(int fd, MemorySegment buf, int flags);

    /**
     * poll(2) on one descriptor. Returns the revents mask, or 0 when the timeout expired.
     * A negative timeout waits forever.
     */
    int poll(int fd, int events, int timeoutMillis);

    /** mmap(2). Returns a segment of {@code length} bytes at the mapped address. */
    MemorySegment mmap(long length, int prot, int flags, int fd, long offset);

    /** munmap(2) of a segment obtained from {@link #mmap}. */
    void munmap(MemorySegment mapping);

    /** memfd_create(2). */
    int memfdCreate(String name, int flags);

    /** ftruncate(2). */
    void ftruncate(int fd, long length);

    /** eventfd(2). */
    int eventfd(int initialValue, int flags);

    /** pipe2(2) with the given flags; returns {read end, write end}. */
    int[] pipe(int flags);

    // --- file-system questions (sysfs, device nodes); the real side answers them through the JDK (NIO, PathStat) ---

    /** stat(2) of a path (following links). */
    FileStat stat(String path);

    /** The names in a directory (sysfs: /sys/bus/vdpa/devices/vdpa0), sorted. ENOENT/ENOTDIR as the kernel says. */
    List<String> listDirectory(String path);

    /** The whole content of a small file (sysfs attributes, /proc/modules). */
    byte[] readSmallFile(String path);

    /**
     * The processes that hold {@code path} open, as "pid N (command)": what an EBUSY open of a
     * single-opener node (vhost-vdpa) names. Empty when unknown.
     */
    default List<String> holdersOf(String path) {
        return List.of();
    }
}
