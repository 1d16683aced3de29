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
    /**
     * The counter's buffer, in an automatic arena: freed by the garbage collector, not by {@link #close()}, because
     * closing a shared arena is a handshake with every thread of the JVM (see {@link VhostVdpaDevice}'s buffers).
     */
    private final MemorySegment counter = Arena.ofAuto().allocate(ValueLayout.JAVA_LONG);
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
        checkOpen();
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
        checkOpen();
        return sys.poll(fd, libc_h.POLLIN(), timeoutMillis) != 0;
    }

    /** Reads and clears the counter; 0 when nothing was signalled (EAGAIN). */
    public long drain() {
        checkOpen();
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
        sys.close(fd);
    }

    /** A closed eventfd's number may already name another file of the process: nothing is done with it. */
    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
    }

    @Override
    public String toString() {
        return "eventfd " + fd;
    }
}
