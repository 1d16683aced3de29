package org.vdpactl.conformance;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import org.vdpactl.sys.FileStat;
import org.vdpactl.sys.Syscalls;

/**
 * A {@link Syscalls} whose calls all run on one platform thread, for conformance cases that need a
 * thread with fewer privileges than the test JVM: Linux keeps credentials and capabilities per
 * thread, so a subclass changes them once on that thread ({@link #onThread}) and every call after
 * it is checked like an unprivileged process's.
 */
public abstract class OneThreadSyscalls implements Syscalls, AutoCloseable {
    private final Syscalls delegate;
    private final ExecutorService thread;

    protected OneThreadSyscalls(Syscalls delegate, String threadName) {
        this.delegate = delegate;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs {@code call} on the thread (the set-up that drops the privileges, then every call). */
    protected final <T> T onThread(Supplier<T> call) {
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

    private <T> T run(Supplier<T> call) {
        return onThread(call);
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
