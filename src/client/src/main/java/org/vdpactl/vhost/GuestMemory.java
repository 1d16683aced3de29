package org.vdpactl.vhost;

import java.lang.foreign.MemorySegment;

import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Syscalls;

/**
 * Guest RAM for a vhost-vdpa device: memfd_create + ftruncate + mmap(MAP_SHARED), all through the
 * syscall seam. Shared file-backed memory is required: a VA-mode device (vdpa_sim's default, VDUSE)
 * only maps shared file-backed VMAs and silently skips private anonymous memory — the IOTLB write
 * succeeds but nothing is mapped. Closing unmaps and closes the memfd.
 */
public final class GuestMemory implements AutoCloseable {
    private final Syscalls sys;
    private final int fd;
    private final MemorySegment mapping;
    private boolean closed;

    private GuestMemory(Syscalls sys, int fd, MemorySegment mapping) {
        this.sys = sys;
        this.fd = fd;
        this.mapping = mapping;
    }

    /**
     * Creates {@code size} bytes of shared guest memory named {@code name} (as seen in
     * /proc/PID/maps as "/memfd:name").
     */
    public static GuestMemory create(Syscalls sys, String name, long size) {
        if (size <= 0) {
            throw new IllegalArgumentException("guest memory size must be positive: " + size);
        }
        int fd = sys.memfdCreate(name, libc_h.MFD_CLOEXEC());
        try {
            sys.ftruncate(fd, size);
            MemorySegment m = sys.mmap(size, libc_h.PROT_READ() | libc_h.PROT_WRITE(), libc_h.MAP_SHARED(), fd, 0);
            return new GuestMemory(sys, fd, m);
        } catch (RuntimeException e) {
            try {
                sys.close(fd);
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** The whole mapping. */
    public MemorySegment segment() {
        return mapping;
    }

    /** Host virtual address of the first byte (the {@code uaddr} of IOTLB UPDATEs). */
    public long address() {
        return mapping.address();
    }

    public long size() {
        return mapping.byteSize();
    }

    /** The memfd. */
    public int fd() {
        return fd;
    }

    /** The whole memory as one IOTLB region at {@code iova}. */
    public IotlbRegion region(long iova, IotlbPermission perm) {
        return new IotlbRegion(iova, size(), address(), perm);
    }

    /** {@code length} bytes at {@code offset} of this memory as an IOTLB region at {@code iova}. */
    public IotlbRegion region(long offset, long length, long iova, IotlbPermission perm) {
        if (offset < 0 || length <= 0 || offset > size() - length) {
            throw new IndexOutOfBoundsException("region [" + offset + ", +" + length + ") outside guest memory of " + size());
        }
        return new IotlbRegion(iova, length, address() + offset, perm);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            sys.munmap(mapping);
        } finally {
            sys.close(fd);
        }
    }
}
