package org.vdpactl.fake.mem;

import java.lang.foreign.MemorySegment;

import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Syscalls;

/**
 * A {@link HostFile} that is a real memfd of the host: growing it is ftruncate, every mapping is
 * an mmap of it, so mappings made before and after a growth share their pages, as they do on Linux.
 * Sparse (a 256 GiB file costs nothing until touched) and never accounted against overcommit.
 */
final class MemfdHostFile implements HostFile {
    /** MFD_NAME_MAX_LEN. */
    private static final int MAX_NAME = 249;
    private final Syscalls host;
    private final int fd;
    private long size;

    MemfdHostFile(Syscalls host, String name) {
        this.host = host;
        String label = "vdpactl-fake:" + name;
        // the host takes at most 249 bytes, as the fake's memfd_create does for the name alone
        this.fd = host.memfdCreate(label.length() > MAX_NAME ? label.substring(0, MAX_NAME) : label, libc_h.MFD_CLOEXEC());
    }

    @Override
    public synchronized void ensureSize(long bytes) {
        if (bytes > size) {
            host.ftruncate(fd, bytes);
            size = bytes;
        }
    }

    @Override
    public synchronized HostReservation map(long offset, long length, boolean shared) {
        int type = shared ? libc_h.MAP_SHARED() : libc_h.MAP_PRIVATE();
        MemorySegment m = host.mmap(length, libc_h.PROT_READ() | libc_h.PROT_WRITE(), type | libc_h.MAP_NORESERVE(),
                fd, offset);
        return new HostReservation(m, () -> host.munmap(m));
    }

    @Override
    public void close() {
        host.close(fd);
    }
}
