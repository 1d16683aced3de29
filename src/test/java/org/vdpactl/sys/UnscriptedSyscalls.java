package org.vdpactl.netlink;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.vdpactl.sys.FileStat;
import org.vdpactl.sys.Syscalls;

/** A Syscalls whose every call fails; tests override the few a scenario needs. */
public class UnsupportedSyscalls implements Syscalls {
    protected UnsupportedOperationException no(String call) {
        return new UnsupportedOperationException(call + " is not part of this test's syscall script");
    }

    @Override public int open(String path, int flags) { throw no("open"); }
    @Override public void close(int fd) { throw no("close"); }
    @Override public int ioctl(int fd, long request, MemorySegment arg) { throw no("ioctl"); }
    @Override public long read(int fd, MemorySegment buf) { throw no("read"); }
    @Override public long write(int fd, MemorySegment buf) { throw no("write"); }
    @Override public int socket(int domain, int type, int protocol) { throw no("socket"); }
    @Override public void bind(int fd, MemorySegment addr) { throw no("bind"); }
    @Override public int getsockname(int fd, MemorySegment addr) { throw no("getsockname"); }
    @Override public void setsockopt(int fd, int level, int name, int value) { throw no("setsockopt"); }
    @Override public long sendto(int fd, MemorySegment buf, int flags, MemorySegment addr) { throw no("sendto"); }
    @Override public long recvfrom(int fd, MemorySegment buf, int flags) { throw no("recvfrom"); }
    @Override public int poll(int fd, int events, int timeoutMillis) { throw no("poll"); }
    @Override public MemorySegment mmap(long length, int prot, int flags, int fd, long offset) { throw no("mmap"); }
    @Override public void munmap(MemorySegment mapping) { throw no("munmap"); }
    @Override public int memfdCreate(String name, int flags) { throw no("memfdCreate"); }
    @Override public void ftruncate(int fd, long length) { throw no("ftruncate"); }
    @Override public int eventfd(int initialValue, int flags) { throw no("eventfd"); }
    @Override public int[] pipe(int flags) { throw no("pipe"); }
    @Override public FileStat stat(String path) { throw no("stat"); }
    @Override public List<String> listDirectory(String path) { throw no("listDirectory"); }
    @Override public byte[] readSmallFile(String path) { throw no("readSmallFile"); }
}
