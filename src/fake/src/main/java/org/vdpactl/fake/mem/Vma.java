package org.vdpactl.fake.mem;

/**
 * One fake virtual memory area: {@code [start, end)} in the host address space (the address the
 * caller got from mmap), with what the vhost-vdpa VA-mode walk looks at.
 *
 * @param start       first address
 * @param end         one past the last address
 * @param file        identity of the backing file, or null for anonymous private memory
 * @param shared      MAP_SHARED
 * @param writable    mapped with PROT_WRITE (VM_WRITE): what a write pin (FOLL_WRITE) of PA mode needs
 * @param io          VM_IO/VM_PFNMAP (doorbells)
 * @param reservation host memory behind it (one reference held per VMA)
 */
public record Vma(long start, long end, Object file, boolean shared, boolean writable, boolean io, HostReservation reservation) {

    public long length() {
        return end - start;
    }

    /** What vhost-vdpa in VA mode maps: file-backed, shared, not IO/PFNMAP. */
    public boolean iotlbMappable() {
        return file != null && shared && !io;
    }

    boolean contains(long address) {
        return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
    }
}
