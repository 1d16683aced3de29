package org.vdpactl.fake.mem;

/**
 * Where the fake kernel gets the real, dereferenceable memory behind fake mappings (memfd pages,
 * anonymous mappings, doorbell pages).
 */
public interface HostMemory {
    /** The page size of the fake kernel (x86_64 / aarch64 4 KiB pages); KernelConstants.PAGE_SIZE is this. */
    long PAGE_SIZE = 4096;

    /** Reserves {@code bytes} (a page multiple) of zero-filled memory; the reservation starts with one reference. */
    HostReservation reserve(long bytes);

    /**
     * A growable file's memory (a memfd's pages). The default serves files from {@link #reserve}
     * with a fixed extent fixed at the first mapping; {@link #host()} uses real host memfds.
     */
    default HostFile createFile(String name) {
        return new FixedHostFile(this, name);
    }

    /**
     * Real anonymous memory from the host kernel, reserved with MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE
     * so that even a 256 GiB guest costs nothing until touched.
     */
    static HostMemory host() {
        return MmapHostMemory.ofThisProcess();
    }
}
