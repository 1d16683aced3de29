package org.vdpactl.sys;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The base of the hand-written {@link Syscalls} test doubles: every call fails with
 * {@link #unscripted(String)} unless a subclass scripts it, so that a test notices a call it did not
 * expect instead of getting a made-up answer.
 */
public class UnscriptedSyscalls implements Syscalls {
    /** What an unscripted call throws: by default an UnsupportedOperationException naming the call. */
    protected RuntimeException unscripted(String call) {
        return new UnsupportedOperationException(call + " is not part of this test's syscall script");
    }

    @Override public int open(String path, int flags) { throw unscripted("open"); }
    @Override public void close(int fd) { throw unscripted("close"); }
    @Override public int ioctl(int fd, long request, MemorySegment arg) { throw unscripted("ioctl"); }
    @Override public long read(int fd, MemorySegment buf) { throw unscripted("read"); }
    @Override public long write(int fd, MemorySegment buf) { throw unscripted("write"); }
    @Override public int socket(int domain, int type, int protocol) { throw unscripted("socket"); }
    @Override public void bind(int fd, MemorySegment addr) { throw unscripted("bind"); }
    @Override public int getsockname(int fd, MemorySegment addr) { throw unscripted("getsockname"); }
    @Override public void setsockopt(int fd, int level, int name, int value) { throw unscripted("setsockopt"); }
    @Override public long sendto(int fd, MemorySegment buf, int flags, MemorySegment addr) { throw unscripted("sendto"); }
    @Override public long recvfrom(int fd, MemorySegment buf, int flags) { throw unscripted("recvfrom"); }
    @Override public int poll(int fd, int events, int timeoutMillis) { throw unscripted("poll"); }
    @Override public MemorySegment mmap(long length, int prot, int flags, int fd, long offset) { throw unscripted("mmap"); }
    @Override public void munmap(MemorySegment mapping) { throw unscripted("munmap"); }
    @Override public int memfdCreate(String name, int flags) { throw unscripted("memfdCreate"); }
    @Override public void ftruncate(int fd, long length) { throw unscripted("ftruncate"); }
    @Override public int eventfd(int initialValue, int flags) { throw unscripted("eventfd"); }
    @Override public int[] pipe(int flags) { throw unscripted("pipe"); }
    @Override public FileStat stat(String path) { throw unscripted("stat"); }
    @Override public List<String> listDirectory(String path) { throw unscripted("listDirectory"); }
    @Override public byte[] readSmallFile(String path) { throw unscripted("readSmallFile"); }
}
