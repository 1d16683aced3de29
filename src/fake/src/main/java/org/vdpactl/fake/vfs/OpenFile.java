package org.vdpactl.fake.vfs;

import java.util.concurrent.atomic.AtomicInteger;

import org.vdpactl.ffi.gen.libc.libc_h;

/**
 * An open file description ({@code struct file}): the file, its access mode and status flags,
 * shared by every fd that refers to it (dup, fork). It stays alive while an fd refers to it or a
 * call on it is in flight; the file's {@link FakeFile#release()} runs when the last reference goes.
 */
public final class OpenFile {
    private final FakeFile file;
    private final int accessMode;
    private volatile int statusFlags;
    private final AtomicInteger refs = new AtomicInteger(1);

    /** @param flags open flags: access mode (O_RDONLY/O_WRONLY/O_RDWR) and status flags (O_NONBLOCK) */
    public OpenFile(FakeFile file, int flags) {
        this.file = file;
        this.accessMode = flags & KernelConstants.O_ACCMODE;
        this.statusFlags = flags & libc_h.O_NONBLOCK();
    }

    public FakeFile file() {
        return file;
    }

    public boolean readable() {
        return accessMode == libc_h.O_RDONLY() || accessMode == libc_h.O_RDWR();
    }

    public boolean writable() {
        return accessMode == libc_h.O_WRONLY() || accessMode == libc_h.O_RDWR();
    }

    /** O_NONBLOCK (open flag, EFD_NONBLOCK, SOCK_NONBLOCK, FIONBIO). */
    public boolean nonBlocking() {
        return (statusFlags & libc_h.O_NONBLOCK()) != 0;
    }

    public void setNonBlocking(boolean on) {
        statusFlags = on ? statusFlags | libc_h.O_NONBLOCK() : statusFlags & ~libc_h.O_NONBLOCK();
    }

    /** Adds a reference (a new fd, an in-flight call). */
    public OpenFile retain() {
        refs.incrementAndGet();
        return this;
    }

    /** Adds a reference unless the last one is already gone (a lookup racing with close); false then. */
    public boolean tryRetain() {
        int r;
        do {
            r = refs.get();
            if (r == 0) {
                return false;
            }
        } while (!refs.compareAndSet(r, r + 1));
        return true;
    }

    /** Drops a reference; the last one releases the file. */
    public void release() {
        if (refs.decrementAndGet() == 0) {
            file.release();
        }
    }

    @Override
    public String toString() {
        return file.kind();
    }
}
