package org.vdpactl.conformance.device;

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
 * A {@link Syscalls} whose calls run on one platform thread that changed its filesystem uid and
 * gid with raw setfsgid(2)/setfsuid(2). Both are per thread in Linux (glibc does not broadcast
 * them), and moving the fsuid away from 0 drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the
 * thread's effective set, so its open(2) is checked like an ordinary user's.
 */
final class FsuidThreadSyscalls implements Syscalls, AutoCloseable {
    private final Syscalls delegate;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fsuid-unprivileged");
        t.setDaemon(true);
        return t;
    });

    FsuidThreadSyscalls(Syscalls delegate, int uid, int gid) {
        this.delegate = delegate;
        run(() -> {
            // load what stat(2) needs (jnr-posix's native stub) while this thread may still read it
            delegate.stat("/");
            setFsIds(uid, gid);
            return null;
        });
    }

    private static void setFsIds(int uid, int gid) {
        boolean arm = System.getProperty("os.arch").contains("aarch64");
        long setfsuid = arm ? 151 : 122;
        long setfsgid = arm ? 152 : 123;
        Linker linker = Linker.nativeLinker();
        MethodHandle syscall = linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                Linker.Option.firstVariadicArg(1));
        try {
            // the group first: setfsgid needs CAP_SETGID, which the uid change would take away
            long unusedOldGid = (long) syscall.invokeExact(setfsgid, (long) gid);
            long unusedOldUid = (long) syscall.invokeExact(setfsuid, (long) uid);
            // both return the previous id whatever happened; a second call reads the current one back
            long nowGid = (long) syscall.invokeExact(setfsgid, (long) gid);
            long nowUid = (long) syscall.invokeExact(setfsuid, (long) uid);
            if (nowUid != uid || nowGid != gid) {
                throw new IllegalStateException("setfsuid/setfsgid did not take: fsuid " + nowUid + " fsgid " + nowGid);
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
