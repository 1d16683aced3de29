package org.vdpactl.fake.vfs;

import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.mem.HostFile;
import org.vdpactl.fake.mem.HostMemory;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.FileStat;

/**
 * memfd (mm/memfd.c on shmem): a size set with ftruncate, and mappings of its pages. The pages
 * live in a {@link HostFile} (a real host memfd with {@link HostMemory#host()}), so every shared
 * mapping — made before or after the file grew, of any length — sees the same bytes, and a
 * private mapping starts as a copy of the file. As on Linux, mmap does not check the file size:
 * a mapping may reach past the end.
 *
 * <p>Where the fake differs: the host extent only grows (to the larger of the file size and the
 * furthest mapping), so pages past the end of the file read as zeros instead of raising SIGBUS, and
 * a shrinking ftruncate leaves the pages' contents in place. read/write of the file are not modelled.
 */
public final class MemFdFile implements FakeFile {
    private final String name;
    private final HostMemory memory;
    private long size;
    private HostFile backing;

    public MemFdFile(String name, HostMemory memory) {
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
        if (backing != null) {
            backing.ensureSize(roundUp(length));
        }
    }

    @Override
    public synchronized FakeMapping mmap(FakeProcess caller, OpenFile file, long length, int prot, int flags,
                                         long offset) {
        boolean shared = (flags & KernelConstants.MAP_TYPE) != libc_h.MAP_PRIVATE();
        if (backing == null) {
            if (!shared) {
                // nothing was ever written: the file's pages are all zero
                return new FakeMapping(memory.reserve(length), 0, length, this, false, false);
            }
            backing = memory.createFile(name);
        }
        backing.ensureSize(Math.max(roundUp(size), offset + length));
        return new FakeMapping(backing.map(offset, length, shared), 0, length, this, shared, false);
    }

    @Override
    public FileStat stat() {
        return new FileStat(FileStat.Type.REGULAR, 0777, 0, 0, 0, 0);
    }

    @Override
    public synchronized void release() {
        if (backing != null) {
            backing.close();
            backing = null;
        }
    }

    public static long roundUp(long length) {
        return (length + KernelConstants.PAGE_SIZE - 1) & -KernelConstants.PAGE_SIZE;
    }
}
