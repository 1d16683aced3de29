package org.vdpactl.conformance.netlink;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.vdpactl.sys.FileStat;
import org.vdpactl.sys.Syscalls;

/**
 * A {@link Syscalls} whose calls all run on one platform thread that removed CAP_NET_ADMIN from
 * its effective and permitted sets with a raw capset(2). Linux keeps capabilities per thread, and
 * genetlink's GENL_ADMIN_PERM checks the sending thread, so this thread is "unprivileged" for
 * netlink while the rest of the test JVM keeps running as root.
 */
final class CapDroppedThreadSyscalls implements Syscalls, AutoCloseable {
    private static final int CAP_NET_ADMIN = 12;
    private static final int LINUX_CAPABILITY_VERSION_3 = 0x20080522;

    private final Syscalls delegate;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "netlink-unprivileged");
        t.setDaemon(true);
        return t;
    });

    CapDroppedThreadSyscalls(Syscalls delegate) {
        this.delegate = delegate;
        run(() -> {
            dropCapNetAdmin();
            return null;
        });
    }

    private static void dropCapNetAdmin() {
        boolean arm = System.getProperty("os.arch").contains("aarch64");
        long capget = arm ? 90 : 125;
        long capset = arm ? 91 : 126;
        Linker linker = Linker.nativeLinker();
        MethodHandle syscall = linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS),
                Linker.Option.firstVariadicArg(1));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment header = arena.allocate(8);
            header.set(ValueLayout.JAVA_INT, 0, LINUX_CAPABILITY_VERSION_3);
            MemorySegment data = arena.allocate(24);
            if ((long) syscall.invokeExact(capget, header, data) != 0) {
                throw new IllegalStateException("capget failed");
            }
            int mask = ~(1 << CAP_NET_ADMIN);
            data.set(ValueLayout.JAVA_INT, 0, data.get(ValueLayout.JAVA_INT, 0) & mask);
            data.set(ValueLayout.JAVA_INT, 4, data.get(ValueLayout.JAVA_INT, 4) & mask);
            if ((long) syscall.invokeExact(capset, header, data) != 0) {
                throw new IllegalStateException("capset failed");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private <T> T run(Supplier<T> call) {
        Future<T> f = thread.submit(call::get);
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }

    @Override public int open(String path, int flags) { return run(() -> delegate.open(path, flags)); }
    @Override public void close(int fd) { run(() -> { delegate.close(fd); return null; }); }
    @Override public int ioctl(int fd, long request, MemorySegment arg) { return run(() -> delegate.ioctl(fd, request, arg)); }
    @Override public long read(int fd, MemorySegment buf) { return run(() -> delegate.read(fd, buf)); }
    @Override public long write(int fd, MemorySegment buf) { return run(() -> delegate.write(fd, buf)); }
    @Override public int socket(int domain, int type, int protocol) { return run(() -> delegate.socket(domain, type, protocol)); }
    @Override public void bind(int fd, MemorySegment addr) { run(() -> { delegate.bind(fd, addr); return null; }); }
    @Override public int getsockname(int fd, MemorySegment addr) { return run(() -> delegate.getsockname(fd, addr)); }
    @Override public void setsockopt(int fd, int level, int name, int value) { run(() -> { delegate.setsockopt(fd, level, name, value); return null; }); }
    @Override public long sendto(int fd, MemorySegment buf, int flags, MemorySegment addr) { return run(() -> delegate.sendto(fd, buf, flags, addr)); }
    @Override public long recvfrom(int fd, MemorySegment buf, int flags) { return run(() -> delegate.recvfrom(fd, buf, flags)); }
    @Override public int poll(int fd, int events, int timeoutMillis) { return run(() -> delegate.poll(fd, events, timeoutMillis)); }
    @Override public MemorySegment mmap(long length, int prot, int flags, int fd, long offset) { return run(() -> delegate.mmap(length, prot, flags, fd, offset)); }
    @Override public void munmap(MemorySegment mapping) { run(() -> { delegate.munmap(mapping); return null; }); }
    @Override public int memfdCreate(String name, int flags) { return run(() -> delegate.memfdCreate(name, flags)); }
    @Override public void ftruncate(int fd, long length) { run(() -> { delegate.ftruncate(fd, length); return null; }); }
    @Override public int eventfd(int initialValue, int flags) { return run(() -> delegate.eventfd(initialValue, flags)); }
    @Override public int[] pipe(int flags) { return run(() -> delegate.pipe(flags)); }
    @Override public FileStat stat(String path) { return run(() -> delegate.stat(path)); }
    @Override public List<String> listDirectory(String path) { return run(() -> delegate.listDirectory(path)); }
    @Override public byte[] readSmallFile(String path) { return run(() -> delegate.readSmallFile(path)); }
}
