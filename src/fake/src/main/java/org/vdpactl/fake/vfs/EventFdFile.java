package org.vdpactl.fake.vfs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.time.Clock;

/**
 * eventfd (fs/eventfd.c): a 64-bit counter. read needs 8 bytes and returns the counter (or 1 in
 * semaphore mode) and takes it away, blocking or EAGAIN while it is 0; write adds an 8-byte value,
 * ULLONG_MAX is EINVAL, and a sum beyond ULLONG_MAX−1 blocks or EAGAIN. Kernel-side users (vhost
 * kick forwarding) subscribe with {@link #addListener}; a write wakes them even when it adds 0,
 * as the kernel's wake-up does.
 */
public final class EventFdFile implements FakeFile {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final boolean semaphore;
    private final Clock clock;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private long count;

    public EventFdFile(long initial, boolean semaphore, Clock clock) {
        this.count = initial;
        this.semaphore = semaphore;
        this.clock = clock;
    }

    @Override
    public String kind() {
        return "eventfd";
    }

    /** The current counter (unsigned). */
    public long counter() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

    /** Called on every successful write/signal, outside the eventfd's lock. */
    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    public void removeListener(Runnable listener) {
        listeners.remove(listener);
    }

    /** eventfd_signal from kernel code (a used-buffer interrupt): adds {@code n}, saturating. */
    public void signal(long n) {
        lock.lock();
        try {
            long room = -1L - count; // ULLONG_MAX - count
            count = Long.compareUnsigned(n, room) > 0 ? -1L : count + n;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        listeners.forEach(Runnable::run);
    }

    @Override
    public long read(FakeProcess caller, OpenFile file, MemorySegment buf) {
        if (buf.byteSize() < 8) {
            throw KernelError.of(Errno.EINVAL, "eventfd read needs 8 bytes");
        }
        long value;
        lock.lock();
        try {
            if (count == 0) {
                if (file.nonBlocking()) {
                    throw KernelError.of(Errno.EAGAIN, "eventfd counter is 0");
                }
                Waiting.await(changed, () -> count != 0, -1, clock);
            }
            value = semaphore ? 1 : count;
            count -= value;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        MemorySegment out = UserMemory.kernelBuffer(8);
        out.set(ValueLayout.JAVA_LONG, 0, value);
        UserMemory.copyOut(buf, 0, out);
        return 8;
    }

    @Override
    public long write(FakeProcess caller, OpenFile file, MemorySegment buf) {
        if (buf.byteSize() < 8) {
            throw KernelError.of(Errno.EINVAL, "eventfd write needs 8 bytes");
        }
        long value = UserMemory.readLong(buf, 0);
        if (value == -1L) {
            throw KernelError.of(Errno.EINVAL, "eventfd write of ULLONG_MAX");
        }
        lock.lock();
        try {
            if (!fits(value)) {
                if (file.nonBlocking()) {
                    throw KernelError.of(Errno.EAGAIN, "eventfd counter would overflow");
                }
                Waiting.await(changed, () -> fits(value), -1, clock);
            }
            count += value;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        listeners.forEach(Runnable::run);
        return 8;
    }

    /** ULLONG_MAX - count > value, i.e. the sum stays at most ULLONG_MAX - 1. */
    private boolean fits(long value) {
        return Long.compareUnsigned(-1L - count, value) > 0;
    }

    @Override
    public int poll(FakeProcess caller, OpenFile file, int events, int timeoutMillis) {
        lock.lock();
        try {
            int filter = events | libc_h.POLLERR() | libc_h.POLLHUP();
            Waiting.await(changed, () -> (mask() & filter) != 0, timeoutMillis, clock);
            return mask() & filter;
        } finally {
            lock.unlock();
        }
    }

    private int mask() {
        int m = 0;
        if (count != 0) {
            m |= libc_h.POLLIN();
        }
        if (count == -1L) {
            m |= libc_h.POLLERR();
        }
        if (Long.compareUnsigned(count, KernelConstants.EVENTFD_MAX) < 0) {
            m |= libc_h.POLLOUT();
        }
        return m;
    }
}
