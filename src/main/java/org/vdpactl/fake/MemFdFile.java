package org.vdpactl.fake;

import org.vdpactl.fake.bus.KernelError;
import org.vdpactl.fake.mem.HostMemory;
import org.vdpactl.fake.mem.HostReservation;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;

/**
 * memfd (mm/memfd.c on shmem): a size set with ftruncate and MAP_SHARED mappings backed by real
 * host memory, all mappings of the file sharing one reservation (so what one mapping writes the
 * other reads). The reservation is made at the first shared mapping, sized to cover the file and
 * that mapping; a later shared mapping reaching beyond it is refused with ENOMEM (a fake limitation:
 * grow the file before the first mmap). MAP_PRIVATE mappings get their own zero-filled memory (the
 * fake does not copy file contents into private mappings). read/write of the file are not modelled.
 */
public final class MemFdFile implements FakeFile {
    private final String name;
    private final HostMemory memory;
    private long size;
    private HostReservation backing;

    MemFdFile(String name, HostMemory memory) {
        this.name = name;
        this.memory = memory;
    }

    @Override
    public String kind() {
        return "memfd:" + name;
    }

    public synchronized long size() {
        return size;
    }

    @Override
    public synchronized void ftruncate(FakeProcess caller, OpenFile file, long length) {
        size = length;
    }

    @Override
    public synchronized FakeMapping mmap(FakeProcess caller, OpenFile file, long length, int prot, int flags,
                                         long offset) {
        boolean shared = (flags & KernelConstants.MAP_TYPE) != libc_h.MAP_PRIVATE();
        if (!shared) {
            return new FakeMapping(memory.reserve(length), 0, length, this, false, false);
        }
        long need = offset + length;
        if (backing == null) {
            backing = memory.reserve(roundUp(Math.max(size, need)));
        } else if (need > backing.size()) {
            throw KernelError.of(Errno.ENOMEM, String.format(
                    "fake limitation: %s was first mapped with %d bytes, cannot map up to %d", name, backing.size(), need));
        }
        return new FakeMapping(backing.retain(), offset, length, this, true, false);
    }

    @Override
    public FileStat stat() {
        return new FileStat(FileStat.Type.REGULAR, 0777, 0, 0, 0, 0);
    }

    @Override
    public synchronized void release() {
        if (backing != null) {
            backing.release();
            backing = null;
        }
    }

    static long roundUp(long length) {
        return (length + KernelConstants.PAGE_SIZE - 1) & -KernelConstants.PAGE_SIZE;
    }
}
