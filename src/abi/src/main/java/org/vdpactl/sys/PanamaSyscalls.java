package org.vdpactl.sys;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Reference;
import java.nio.file.AccessDeniedException;
import java.util.Map;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.abi.UapiIoctl;
import org.vdpactl.ffi.gen.libc.pollfd;

/**
 * The real kernel, through FFM downcalls.
 *
 * <p>jextract binds the libc functions but cannot capture errno, so each handle here is built once,
 * on libc's symbol and the generated function descriptor (checked equal, see {@link #SIGNATURES}), with
 * {@code captureCallState("errno")}.
 * The calls of a netlink exchange (socket, bind, getsockname, setsockopt, sendto, recvfrom, poll) and close go
 * through one handle on libc's {@code syscall(2)} instead ({@link SyscallHandle}): each handle linked costs
 * start-up time, and the same signature for all of them is one link.
 * The variadic {@code ioctl} and {@code open} get exact, non-variadic-looking handles with
 * {@code firstVariadicArg}: the generated invoker's {@code apply} boxes every argument, which the
 * benchmarks show is measurably slower than an exact {@code invokeExact}.
 * stat(2), which has no hot path, goes through the JDK ({@link PathStat}).
 */
public final class PanamaSyscalls implements Syscalls {
    /** A failed ioctl is named in its {@link SyscallException} by the ABI's table ({@link UapiIoctl#operation}). */
    public PanamaSyscalls() {
    }

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final long ERRNO_OFFSET = errnoOffset();
    private static final Linker.Option CAPTURE = Linker.Option.captureCallState("errno");

    // Each handle lives in its own holder class, built on first use: building all of them cost ~40 ms of
    // every command's start-up, and most commands use only a few. invokeExact on a holder's static final
    // handle is as fast as on a field of this class.
    private static final class IoctlPtrHandle {
        static final MethodHandle H = LINKER.downcallHandle(symbol("ioctl"),
                FunctionDescriptor.of(libc_h.C_INT, libc_h.C_INT, libc_h.C_LONG, libc_h.C_POINTER),
                CAPTURE, Linker.Option.firstVariadicArg(2));
    }
    // open and ioctl too: a netlink command (dev list on the kernel) uses neither
    private static final class OpenHandle {
        static final MethodHandle H = LINKER.downcallHandle(symbol("open"),
                FunctionDescriptor.of(libc_h.C_INT, libc_h.C_POINTER, libc_h.C_INT, libc_h.C_INT),
                CAPTURE, Linker.Option.firstVariadicArg(2));
    }
    /**
     * libc's {@code syscall(2)}, the one handle of the calls a netlink exchange makes (socket, bind, getsockname,
     * setsockopt, sendto, recvfrom, ppoll) and of close. Every handle linked costs a generated stub and its lambda
     * forms, which the JDK 25 AOT cache does not keep, at every start (docs/benchmarks.md, part 4): one signature
     * for all eight is one link instead of eight, and {@code vdpactl dev list} on the kernel makes only these.
     * {@code long syscall(long number, ...)}: the arguments pass as longs, pointers as their addresses
     * ({@link #address}), as C's callers pass them.
     */
    private static final class SyscallHandle {
        static final MethodHandle H = LINKER.downcallHandle(symbol("syscall"),
                FunctionDescriptor.of(libc_h.C_LONG, libc_h.C_LONG, libc_h.C_LONG, libc_h.C_LONG, libc_h.C_LONG, libc_h.C_LONG,
                        libc_h.C_LONG, libc_h.C_LONG),
                CAPTURE, Linker.Option.firstVariadicArg(1));
        static final SyscallNumbers NR = SyscallNumbers.of(System.getProperty("os.arch"));
    }
    private static final class ReadHandle {
        static final MethodHandle H = handle("read");
    }
    private static final class WriteHandle {
        static final MethodHandle H = handle("write");
    }
    private static final class MmapHandle {
        static final MethodHandle H = handle("mmap");
    }
    private static final class MunmapHandle {
        static final MethodHandle H = handle("munmap");
    }
    private static final class MemfdCreateHandle {
        static final MethodHandle H = handle("memfd_create");
    }
    private static final class FtruncateHandle {
        static final MethodHandle H = handle("ftruncate");
    }
    private static final class EventfdHandle {
        static final MethodHandle H = handle("eventfd");
    }
    private static final class Pipe2Handle {
        static final MethodHandle H = handle("pipe2");
    }

    /** One errno capture buffer per thread: the seam is called from many orchestration threads at once. */
    private static final ThreadLocal<MemorySegment> CAPTURED =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE_LAYOUT));

    /**
     * The errno-capturing handle of libc's {@code name}. The address and descriptor are not taken from jextract's
     * {@code libc_h.name$address()}/{@code $descriptor()}: those initialise the generated holder class, whose static
     * initialiser also links jextract's own (non-capturing) handle, which the seam never calls. Every downcall
     * handle costs a generated stub class and ~10 lambda forms that the JDK 25 AOT cache cannot keep, so that
     * doubled the FFM work of every command's start-up. {@code PanamaSyscallsShapesTest} keeps each signature
     * here equal to the generated one, so the bindings stay the one source of the C signatures.
     */
    private static MethodHandle handle(String name) {
        return LINKER.downcallHandle(symbol(name), SIGNATURES.get(name), CAPTURE);
    }

    /** The C signature of each non-variadic libc function the seam calls, as jextract generated it (see {@link #handle}). */
    static final Map<String, FunctionDescriptor> SIGNATURES = Map.ofEntries(
            Map.entry("read", FunctionDescriptor.of(libc_h.C_LONG, libc_h.C_INT, libc_h.C_POINTER, libc_h.C_LONG)),
            Map.entry("write", FunctionDescriptor.of(libc_h.C_LONG, libc_h.C_INT, libc_h.C_POINTER, libc_h.C_LONG)),
            Map.entry("mmap", FunctionDescriptor.of(libc_h.C_POINTER, libc_h.C_POINTER, libc_h.C_LONG, libc_h.C_INT, libc_h.C_INT, libc_h.C_INT, libc_h.C_LONG)),
            Map.entry("munmap", FunctionDescriptor.of(libc_h.C_INT, libc_h.C_POINTER, libc_h.C_LONG)),
            Map.entry("memfd_create", FunctionDescriptor.of(libc_h.C_INT, libc_h.C_POINTER, libc_h.C_INT)),
            Map.entry("ftruncate", FunctionDescriptor.of(libc_h.C_INT, libc_h.C_INT, libc_h.C_LONG)),
            Map.entry("eventfd", FunctionDescriptor.of(libc_h.C_INT, libc_h.C_INT, libc_h.C_INT)),
            Map.entry("pipe2", FunctionDescriptor.of(libc_h.C_INT, libc_h.C_POINTER, libc_h.C_INT)));

    /** libc's {@code name} (what jextract's lookup finds: the bindings load no library of their own). */
    private static MemorySegment symbol(String name) {
        return LINKER.defaultLookup().find(name).orElseThrow(() -> new UnsatisfiedLinkError("unresolved symbol: " + name));
    }

    /** libc's {@code syscall(number, a, b, c, d, e, f)}: -1 with errno captured in {@code cs} on failure. */
    private static long syscall(MemorySegment cs, long number, long a, long b, long c, long d, long e, long f) throws Throwable {
        return (long) SyscallHandle.H.invokeExact(cs, number, a, b, c, d, e, f);
    }

    /**
     * The address a pointer argument of {@link #syscall} passes. FFM checks a segment passed as a pointer for
     * being native and alive; a long address is not checked, so this does it. The caller keeps the segment
     * reachable through the call ({@code Reference.reachabilityFence}), as an auto arena frees it once it is not.
     */
    private static long address(MemorySegment segment) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("a system call takes native memory, not " + segment);
        }
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("Already closed");
        }
        return segment.address();
    }

    /**
     * errno's place in the capture buffer, by adding up the members before it. A layout's VarHandle, or its
     * {@code byteOffset} of a path, builds method handles at every start that cost more than the one read of errno
     * a failed command makes.
     */
    private static long errnoOffset() {
        long offset = 0;
        for (MemoryLayout m : CAPTURE_LAYOUT.memberLayouts()) {
            if ("errno".equals(m.name().orElse(null))) {
                return offset;
            }
            offset += m.byteSize();
        }
        throw new IllegalStateException("the JDK captures no errno: " + CAPTURE_LAYOUT);
    }

    private static int errno(MemorySegment captured) {
        return captured.get(ValueLayout.JAVA_INT, ERRNO_OFFSET);
    }

    private static SyscallException fail(String op, MemorySegment captured) {
        return new SyscallException(op, errno(captured));
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    @Override
    public int open(String path, int flags) {
        MemorySegment cs = CAPTURED.get();
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) OpenHandle.H.invokeExact(cs, arena.allocateFrom(path), flags, 0);
            if (fd < 0) {
                throw fail("open " + path, cs);
            }
            return fd;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void close(int fd) {
        MemorySegment cs = CAPTURED.get();
        try {
            if (syscall(cs, SyscallHandle.NR.close(), fd, 0, 0, 0, 0, 0) < 0) {
                throw fail("close", cs);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int ioctl(int fd, long request, MemorySegment arg) {
        MemorySegment cs = CAPTURED.get();
        int r;
        try {
            r = (int) IoctlPtrHandle.H.invokeExact(cs, fd, request, arg);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (r < 0) {
            throw new SyscallException(UapiIoctl.operation(request), errno(cs));
        }
        return r;
    }

    @Override
    public long read(int fd, MemorySegment buf) {
        MemorySegment cs = CAPTURED.get();
        try {
            long n = (long) ReadHandle.H.invokeExact(cs, fd, buf, buf.byteSize());
            if (n < 0) {
                throw fail("read", cs);
            }
            return n;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public long write(int fd, MemorySegment buf) {
        return write(CAPTURED.get(), fd, buf);
    }

    /** write(2) of the whole of {@code buf}, errno captured into {@code cs}: the seam's and each writer's. */
    private static long write(MemorySegment cs, int fd, MemorySegment buf) {
        try {
            long n = (long) WriteHandle.H.invokeExact(cs, fd, buf, buf.byteSize());
            if (n < 0) {
                throw fail("write", cs);
            }
            return n;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public FdWriter writer(int fd) {
        return new OwnErrnoWriter(fd);
    }

    /**
     * A writer with its own errno buffer, for one thread at a time. The seam's {@link #write(int, MemorySegment)}
     * finds the calling thread's buffer in a {@code ThreadLocal} and FFM keeps that buffer's automatic arena open
     * for the call (two atomic updates): per IOTLB message, a few percent of the hot path (docs/benchmarks.md,
     * section 2, {@code ffmWriteThreadLocal}). This buffer is passed as a {@link SessionFreeView}; the writer holds
     * the segment of its arena and stays reachable until each call has returned, so the memory outlives the calls.
     */
    private static final class OwnErrnoWriter implements FdWriter {
        private final int fd;
        private final MemorySegment ownCaptured = Arena.ofAuto().allocate(CAPTURE_LAYOUT);
        private final MemorySegment captured = SessionFreeView.of(ownCaptured);

        OwnErrnoWriter(int fd) {
            this.fd = fd;
        }

        @Override
        public long write(MemorySegment buf) {
            try {
                return PanamaSyscalls.write(captured, fd, buf);
            } finally {
                Reference.reachabilityFence(this);
            }
        }
    }

    @Override
    public int socket(int domain, int type, int protocol) {
        MemorySegment cs = CAPTURED.get();
        try {
            int fd = (int) syscall(cs, SyscallHandle.NR.socket(), domain, type, protocol, 0, 0, 0);
            if (fd < 0) {
                throw fail("socket", cs);
            }
            return fd;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void bind(int fd, MemorySegment addr) {
        MemorySegment cs = CAPTURED.get();
        try {
            long r = syscall(cs, SyscallHandle.NR.bind(), fd, address(addr), addr.byteSize(), 0, 0, 0);
            Reference.reachabilityFence(addr);
            if (r < 0) {
                throw fail("bind", cs);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int getsockname(int fd, MemorySegment addr) {
        MemorySegment cs = CAPTURED.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment len = arena.allocateFrom(ValueLayout.JAVA_INT, (int) addr.byteSize());
            long r = syscall(cs, SyscallHandle.NR.getsockname(), fd, address(addr), address(len), 0, 0, 0);
            Reference.reachabilityFence(addr);
            if (r < 0) {
                throw fail("getsockname", cs);
            }
            return len.get(ValueLayout.JAVA_INT, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void setsockopt(int fd, int level, int name, int value) {
        MemorySegment cs = CAPTURED.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocateFrom(ValueLayout.JAVA_INT, value);
            if (syscall(cs, SyscallHandle.NR.setsockopt(), fd, level, name, address(v), 4, 0) < 0) {
                throw fail("setsockopt " + level + "/" + name, cs);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public long sendto(int fd, MemorySegment buf, int flags, MemorySegment addr) {
        MemorySegment cs = CAPTURED.get();
        try {
            long n = syscall(cs, SyscallHandle.NR.sendto(), fd, address(buf), buf.byteSize(), flags, address(addr), addr.byteSize());
            Reference.reachabilityFence(buf);
            Reference.reachabilityFence(addr);
            if (n < 0) {
                throw fail("sendto", cs);
            }
            return n;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public long recvfrom(int fd, MemorySegment buf, int flags) {
        MemorySegment cs = CAPTURED.get();
        try {
            long n = syscall(cs, SyscallHandle.NR.recvfrom(), fd, address(buf), buf.byteSize(), flags, 0, 0);
            Reference.reachabilityFence(buf);
            if (n < 0) {
                throw fail("recvfrom", cs);
            }
            return n;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int poll(int fd, int events, int timeoutMillis) {
        MemorySegment cs = CAPTURED.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pfd = pollfd.allocate(arena);
            pollfd.fd(pfd, fd);
            pollfd.events(pfd, (short) events);
            // ppoll(2) (arm64 has no poll): struct __kernel_timespec { s64 tv_sec; s64 tv_nsec; }, NULL to wait for
            // ever; the kernel writes the time left back into it, so a retry after EINTR waits only for the rest
            long timeout = 0;
            if (timeoutMillis >= 0) {
                MemorySegment ts = arena.allocate(ValueLayout.JAVA_LONG, 2);
                ts.set(ValueLayout.JAVA_LONG, 0, timeoutMillis / 1000);
                ts.set(ValueLayout.JAVA_LONG, 8, (timeoutMillis % 1000) * 1_000_000L);
                timeout = address(ts);
            }
            while (true) {
                int n = (int) syscall(cs, SyscallHandle.NR.ppoll(), address(pfd), 1, timeout, 0, 0, 0);
                if (n < 0) {
                    if (errno(cs) == Errno.EINTR) {
                        continue;
                    }
                    throw fail("poll", cs);
                }
                return n == 0 ? 0 : pollfd.revents(pfd) & 0xFFFF;
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public MemorySegment mmap(long length, int prot, int flags, int fd, long offset) {
        MemorySegment cs = CAPTURED.get();
        try {
            MemorySegment p = (MemorySegment) MmapHandle.H.invokeExact(cs, MemorySegment.NULL, length, prot, flags, fd, offset);
            if (p.address() == -1L) {
                throw fail("mmap", cs);
            }
            return p.reinterpret(length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void munmap(MemorySegment mapping) {
        MemorySegment cs = CAPTURED.get();
        try {
            if ((int) MunmapHandle.H.invokeExact(cs, mapping, mapping.byteSize()) < 0) {
                throw fail("munmap", cs);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int memfdCreate(String name, int flags) {
        MemorySegment cs = CAPTURED.get();
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) MemfdCreateHandle.H.invokeExact(cs, arena.allocateFrom(name), flags);
            if (fd < 0) {
                throw fail("memfd_create", cs);
            }
            return fd;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void ftruncate(int fd, long length) {
        MemorySegment cs = CAPTURED.get();
        try {
            if ((int) FtruncateHandle.H.invokeExact(cs, fd, length) < 0) {
                throw fail("ftruncate", cs);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int eventfd(int initialValue, int flags) {
        MemorySegment cs = CAPTURED.get();
        try {
            int fd = (int) EventfdHandle.H.invokeExact(cs, initialValue, flags);
            if (fd < 0) {
                throw fail("eventfd", cs);
            }
            return fd;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int[] pipe(int flags) {
        MemorySegment cs = CAPTURED.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(ValueLayout.JAVA_INT, 2);
            if ((int) Pipe2Handle.H.invokeExact(cs, fds, flags) < 0) {
                throw fail("pipe2", cs);
            }
            return new int[] {fds.getAtIndex(ValueLayout.JAVA_INT, 0), fds.getAtIndex(ValueLayout.JAVA_INT, 1)};
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public FileStat stat(String path) {
        return PathStat.of(path);
    }

    @Override
    public List<String> listDirectory(String path) {
        try (Stream<Path> s = Files.list(Path.of(path))) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (NoSuchFileException e) {
            throw new SyscallException("opendir " + path, Errno.ENOENT);
        } catch (NotDirectoryException e) {
            throw new SyscallException("opendir " + path, Errno.ENOTDIR);
        } catch (AccessDeniedException e) {
            throw new SyscallException("opendir " + path, Errno.EACCES);
        } catch (IOException e) {
            throw new SyscallException("opendir " + path + " (" + e.getMessage() + ")", Errno.EIO);
        }
    }

    @Override
    public byte[] readSmallFile(String path) {
        try {
            return Files.readAllBytes(Path.of(path));
        } catch (NoSuchFileException e) {
            throw new SyscallException("read " + path, Errno.ENOENT);
        } catch (AccessDeniedException e) {
            throw new SyscallException("read " + path, Errno.EACCES);
        } catch (IOException e) {
            throw new SyscallException("read " + path + " (" + e.getMessage() + ")", Errno.EIO);
        }
    }

    @Override
    public List<String> holdersOf(String path) {
        return NodeHolders.of(Path.of("/proc"), Path.of(path));
    }

    @Override
    public String toString() {
        return "kernel";
    }
}
