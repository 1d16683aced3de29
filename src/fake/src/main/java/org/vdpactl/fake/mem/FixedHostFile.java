package org.vdpactl.fake.mem;

import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;

/**
 * A {@link HostFile} for {@link HostMemory} without real files (Java arenas): one reservation
 * made at the first mapping, covering the extent asked for until then. A later mapping beyond it
 * is ENOMEM, and private mappings start zero-filled rather than as copies; only for small tests.
 */
final class FixedHostFile implements HostFile {
    private final HostMemory memory;
    private long size;
    private HostReservation backing;

    FixedHostFile(HostMemory memory, String name) {
        this.memory = memory;
    }

    @Override
    public synchronized void ensureSize(long bytes) {
        size = Math.max(size, bytes);
    }

    @Override
    public synchronized HostReservation map(long offset, long length, boolean shared) {
        if (!shared) {
            return memory.reserve(length);
        }
        if (backing == null) {
            backing = memory.reserve(Math.max(size, offset + length));
        } else if (offset + length > backing.size()) {
            // arena-backed memory was first mapped with backing.size() bytes and cannot grow: the
            // failure the host's own mmap would report (HostMemory.host()). The fake's errno
            // carrier lives above this package, which only knows host memory.
            throw new SyscallException("mmap", Errno.ENOMEM);
        }
        HostReservation whole = backing.retain();
        return new HostReservation(whole.segment().asSlice(offset, length), whole::release);
    }

    @Override
    public synchronized void close() {
        if (backing != null) {
            backing.release();
            backing = null;
        }
    }
}
