package org.vdpactl.fake.vhost;

import java.lang.foreign.MemorySegment;

import org.vdpactl.fake.vfs.FakeFile;
import org.vdpactl.fake.vfs.FakeMapping;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.vfs.KernelConstants;
import org.vdpactl.fake.vfs.OpenFile;
import org.vdpactl.fake.mem.HostMemory;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.FileStat;

/**
 * An open /dev/vhost-vdpa-N: the char device's file operations (open was done by
 * {@link VhostVdpa#open()}). No read op (EINVAL), no poll op (the VFS default mask), write = IOTLB,
 * ioctl under the device mutex, mmap = doorbell page, release = close-time reset and cleanup.
 */
public final class VhostVdpaFile implements FakeFile {
    /** Major number of "vhost-vdpa" in /proc/devices on the verified kernel. */
    public static final int MAJOR = 248;

    private final VhostVdpa vhost;
    private final HostMemory memory;

    public VhostVdpaFile(VhostVdpa vhost, HostMemory memory) {
        this.vhost = vhost;
        this.memory = memory;
    }

    public VhostVdpa vhost() {
        return vhost;
    }

    @Override
    public String kind() {
        return "vhost-vdpa";
    }

    @Override
    public String describe() {
        return "/dev/vhost-vdpa-" + vhost.device().minor();
    }

    @Override
    public long write(FakeProcess caller, OpenFile file, MemorySegment buf) {
        return vhost.write(caller, buf);
    }

    @Override
    public int ioctl(FakeProcess caller, OpenFile file, long request, MemorySegment arg) {
        var mutex = vhost.device().mutex();
        mutex.lock();
        try {
            return vhost.ioctl(caller, request, arg);
        } finally {
            mutex.unlock();
            vhost.device().deliverInterrupts();
        }
    }

    @Override
    public FakeMapping mmap(FakeProcess caller, OpenFile file, long length, int prot, int flags, long offset) {
        var mutex = vhost.device().mutex();
        mutex.lock();
        try {
            boolean shared = (flags & KernelConstants.MAP_TYPE) != libc_h.MAP_PRIVATE();
            vhost.checkMmap(length, prot, shared, offset);
        } finally {
            mutex.unlock();
        }
        // the doorbell page: real memory so stores land somewhere, marked VM_IO like the kernel's remap_pfn_range
        return new FakeMapping(memory.reserve(KernelConstants.PAGE_SIZE), 0, length, this, true, true);
    }

    @Override
    public FileStat stat() {
        return new FileStat(FileStat.Type.CHAR_DEVICE, 0600, 0, 0, MAJOR, vhost.device().minor());
    }

    @Override
    public void release() {
        var mutex = vhost.device().mutex();
        mutex.lock();
        try {
            vhost.release();
        } finally {
            mutex.unlock();
        }
    }
}
