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
import java.lang.invoke.VarHandle;
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
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));
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
    private static final class CloseHandle {
        static final MethodHandle H = handle("close");
    }
    private static final class ReadHandle {
        static final MethodHandle H = handle("read");
    }
    private static final class WriteHandle {
        static final MethodHandle H = handle("write");
    }
    private static final class SocketHandle {
        static final MethodHandle H = handle("socket");
    }
    private static final class BindHandle {
        static final MethodHandle H = handle("bind");
    }
    private static final class GetsocknameHandle {
        static final MethodHandle H = handle("getsockname");
    }
    private static final class SetsockoptHandle {
        static final MethodHandle H = handle("setsockopt");
    }
    private static final class SendtoHandle {
        static final MethodHandle H = handle("sendto");
    }
    private static final class RecvfromHandle {
        static final MethodHandle H = handle("recvfrom");
    }
    private static final class PollHandle {
        static final MethodHandle H = handle("poll");
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
            Map.entry("close", FunctionDescriptor.of(libc_h.C_INT, libc_h.C_INT)),
            Map.entry("read", FunctionDescriptor.of(libc_h.C_LONG, libc_h.C_INT, libc_h.C_POINTER, libc_h.C_LONG)),
            Map.entry("write", FunctionDescriptor.of(libc_h.C_LONG, libc_h.C_INT, libc_h.C_POINTER, libc_h.C_LONG)),
            Map.entry("socket", FunctionDescriptor.of(libc_h.C_INT, libc_h.C_INT, libc_h.C_INT, libc_h.C_INT)),
            Map.entry("bind", FunctionDescriptor.of(libc_h.C_INT, libc_h.C_INT, libc_h.C_POINTER, libc_h.C_INT)),
            Map.entry("getsockname", FunctionDescriptor.of(libc_h.C_INT, libc_h.C_INT, libc_h.C_POINTER, libc_h.C_POINTER)),
            Map.entry("setsockopt", FunctionDescriptor.of(libc_h.C_INT, libc_h.C_INT, libc_h.C_INT, libc_h.C_INT, libc_h.C_POINTER, libc_h.C_INT)),
            Map.entry("sendto", FunctionDescriptor.of(libc_h.C_LONG, libc_h.C_INT, libc_h.C_POINTER, libc_h.C_LONG, libc_h.C_INT, libc_h.C_POINTER, libc_h.C_INT)),
            Map.entry("recvfrom", FunctionDescriptor.of(libc_h.C_LONG, libc_h.C_INT, libc_h.C_POINTER, libc_h.C_LONG, libc_h.C_INT, libc_h.C_POINTER, libc_h.C_POINTER)),
            Map.entry("poll", FunctionDescriptor.of(libc_h.C_INT, libc_h.C_POINTER, libc_h.C_LONG, libc_h.C_INT)),
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

    private static int errno(MemorySegment captured) {
        return (int) ERRNO.get(captured, 0L);
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
            if ((int) CloseHandle.H.invokeExact(cs, fd) < 0) {
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
        MemorySegment cs = CAPTURED.get();
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
    public int socket(int domain, int type, int protocol) {
        MemorySegment cs = CAPTURED.get();
        try {
            int fd = (int) SocketHandle.H.invokeExact(cs, domain, type, protocol);
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
            if ((int) BindHandle.H.invokeExact(cs, fd, addr, (int) addr.byteSize()) < 0) {
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
            if ((int) GetsocknameHandle.H.invokeExact(cs, fd, addr, len) < 0) {
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
            if ((int) SetsockoptHandle.H.invokeExact(cs, fd, level, name, v, 4) < 0) {
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
            long n = (long) SendtoHandle.H.invokeExact(cs, fd, buf, buf.byteSize(), flags, addr, (int) addr.byteSize());
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
            long n = (long) RecvfromHandle.H.invokeExact(cs, fd, buf, buf.byteSize(), flags, MemorySegment.NULL, MemorySegment.NULL);
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
            while (true) {
                int n = (int) PollHandle.H.invokeExact(cs, pfd, 1L, timeoutMillis);
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
