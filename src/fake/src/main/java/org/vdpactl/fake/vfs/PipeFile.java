package org.vdpactl.fake.vfs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;
import org.vdpactl.time.Clock;

/**
 * One end of a pipe (fs/pipe.c), enough for byte streams, FIONREAD and poll: a 64 KiB buffer,
 * EOF once every writer is gone, EPIPE once every reader is gone, EAGAIN for non-blocking ends.
 */
public final class PipeFile implements FakeFile {
    static final int CAPACITY = 65536;

    private final Pipe pipe;
    private final boolean readEnd;

    /** The buffer both ends share. */
    static final class Pipe {
        final ReentrantLock lock = new ReentrantLock();
        final Condition changed = lock.newCondition();
        final byte[] ring = new byte[CAPACITY];
        final Clock clock;
        int head;
        int length;
        int readers = 1;
        int writers = 1;

        Pipe(Clock clock) {
            this.clock = clock;
        }
    }

    private PipeFile(Pipe pipe, boolean readEnd) {
        this.pipe = pipe;
        this.readEnd = readEnd;
    }

    /** A new pipe: {read end, write end}. */
    public static PipeFile[] create(Clock clock) {
        Pipe p = new Pipe(clock);
        return new PipeFile[] {new PipeFile(p, true), new PipeFile(p, false)};
    }

    @Override
    public String kind() {
        return "pipe";
    }

    @Override
    public long read(FakeProcess caller, OpenFile file, MemorySegment buf) {
        long want = buf.byteSize();
        if (want == 0) {
            return 0;
        }
        pipe.lock.lock();
        try {
            if (pipe.length == 0) {
                if (pipe.writers == 0) {
                    return 0;
                }
                if (file.nonBlocking()) {
                    throw KernelError.of(Errno.EAGAIN, "pipe empty");
                }
                Waiting.await(pipe.changed, () -> pipe.length > 0 || pipe.writers == 0, -1, pipe.clock);
            }
            int n = (int) Math.min(want, pipe.length);
            byte[] out = new byte[n];
            for (int i = 0; i < n; i++) {
                out[i] = pipe.ring[(pipe.head + i) % CAPACITY];
            }
            UserMemory.copyOut(buf, 0, out);
            pipe.head = (pipe.head + n) % CAPACITY;
            pipe.length -= n;
            pipe.changed.signalAll();
            return n;
        } finally {
            pipe.lock.unlock();
        }
    }

    @Override
    public long write(FakeProcess caller, OpenFile file, MemorySegment buf) {
        byte[] data = UserMemory.copyIn(buf, 0, buf.byteSize()).toArray(ValueLayout.JAVA_BYTE);
        pipe.lock.lock();
        try {
            int written = 0;
            while (written < data.length) {
                if (pipe.readers == 0) {
                    if (written > 0) {
                        return written;
                    }
                    throw KernelError.of(KernelConstants.EPIPE, "pipe has no reader");
                }
                if (pipe.length == CAPACITY) {
                    if (file.nonBlocking()) {
                        if (written > 0) {
                            return written;
                        }
                        throw KernelError.of(Errno.EAGAIN, "pipe full");
                    }
                    Waiting.await(pipe.changed, () -> pipe.length < CAPACITY || pipe.readers == 0, -1, pipe.clock);
                    continue;
                }
                int n = Math.min(data.length - written, CAPACITY - pipe.length);
                for (int i = 0; i < n; i++) {
                    pipe.ring[(pipe.head + pipe.length + i) % CAPACITY] = data[written + i];
                }
                pipe.length += n;
                written += n;
                pipe.changed.signalAll();
            }
            return written;
        } finally {
            pipe.lock.unlock();
        }
    }

    @Override
    public int ioctl(FakeProcess caller, OpenFile file, long request, MemorySegment arg) {
        if (request == libc_h.FIONREAD()) {
            int n;
            pipe.lock.lock();
            try {
                n = pipe.length;
            } finally {
                pipe.lock.unlock();
            }
            UserMemory.writeInt(arg, 0, n);
            return 0;
        }
        throw KernelError.of(Errno.ENOTTY, "pipe ioctl " + Long.toHexString(request));
    }

    @Override
    public int poll(FakeProcess caller, OpenFile file, int events, int timeoutMillis) {
        pipe.lock.lock();
        try {
            int filter = events | libc_h.POLLERR() | libc_h.POLLHUP();
            Waiting.await(pipe.changed, () -> (mask() & filter) != 0, timeoutMillis, pipe.clock);
            return mask() & filter;
        } finally {
            pipe.lock.unlock();
        }
    }

    private int mask() {
        int m = 0;
        if (readEnd) {
            if (pipe.length > 0) {
                m |= libc_h.POLLIN() | KernelConstants.POLLRDNORM;
            }
            if (pipe.writers == 0) {
                m |= libc_h.POLLHUP();
            }
        } else {
            if (pipe.length < CAPACITY) {
                m |= libc_h.POLLOUT() | KernelConstants.POLLWRNORM;
            }
            if (pipe.readers == 0) {
                m |= libc_h.POLLERR();
            }
        }
        return m;
    }

    @Override
    public FileStat stat() {
        return new FileStat(FileStat.Type.FIFO, 0600, 0, 0, 0, 0);
    }

    @Override
    public void release() {
        pipe.lock.lock();
        try {
            if (readEnd) {
                pipe.readers--;
            } else {
                pipe.writers--;
            }
            pipe.changed.signalAll();
        } finally {
            pipe.lock.unlock();
        }
    }
}
