package org.vdpactl.vhost;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;

/**
 * An eventfd(2) for vring kick/call and config-change notifications, created through the syscall
 * seam (close-on-exec, non-blocking). Like the device handle, one thread at a time.
 */
public final class EventFd implements AutoCloseable {
    private final Syscalls sys;
    private final int fd;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment counter = arena.allocate(ValueLayout.JAVA_LONG);
    private boolean closed;

    private EventFd(Syscalls sys, int fd) {
        this.sys = sys;
        this.fd = fd;
    }

    /** eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK). */
    public static EventFd create(Syscalls sys) {
        return new EventFd(sys, sys.eventfd(0, libc_h.EFD_CLOEXEC() | libc_h.EFD_NONBLOCK()));
    }

    public int fd() {
        return fd;
    }

    /** Adds {@code value} to the counter (a kick when bound as a vring kick fd). */
    public void signal(long value) {
        counter.set(ValueLayout.JAVA_LONG, 0, value);
        sys.write(fd, counter);
    }

    /** Adds 1. */
    public void signal() {
        signal(1);
    }

    /**
     * Waits up to {@code timeoutMillis} for the counter to become non-zero (poll(2) for POLLIN, no
     * spinning); true when it is. Does not clear it.
     */
    public boolean awaitSignal(int timeoutMillis) {
        return sys.poll(fd, libc_h.POLLIN(), timeoutMillis) != 0;
    }

    /** Reads and clears the counter; 0 when nothing was signalled (EAGAIN). */
    public long drain() {
        try {
            sys.read(fd, counter);
            return counter.get(ValueLayout.JAVA_LONG, 0);
        } catch (SyscallException e) {
            if (e.is(Errno.EAGAIN)) {
                return 0;
            }
            throw e;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            sys.close(fd);
        } finally {
            arena.close();
        }
    }

    @Override
    public String toString() {
        return "eventfd " + fd;
    }
}
