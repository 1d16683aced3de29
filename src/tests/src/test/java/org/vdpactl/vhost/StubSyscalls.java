package org.vdpactl.vhost;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import java.util.function.ToLongFunction;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.UnscriptedSyscalls;

/**
 * A scripted seam for unit tests of the vhost package: records every ioctl and write (with a copy
 * of the argument bytes and the segment address) and answers from per-request handlers. Anything
 * not scripted fails with ENOSYS (the base's {@link #unscripted}) so that a test notices unexpected calls. Device behaviour belongs
 * in the fake kernel and the conformance suite, not here.
 */
final class StubSyscalls extends UnscriptedSyscalls {
    /** Answers one ioctl; may fill {@code arg}; returns the result or throws a SyscallException. */
    interface IoctlHandler {
        int handle(MemorySegment arg);
    }

    /** A recorded call. */
    record Call(String what, long request, byte[] arg, long address) {
    }

    final List<Call> calls = new ArrayList<>();
    final Map<Long, IoctlHandler> ioctls = new HashMap<>();
    final Map<String, FileStat> stats = new HashMap<>();
    final Map<String, List<String>> dirs = new HashMap<>();
    final Map<String, String> files = new HashMap<>();
    final List<Integer> closed = new ArrayList<>();
    /** What write() answers: a byte count, or a negative errno. */
    ToLongFunction<MemorySegment> writeAnswer = seg -> 72;
    int nextFd = 7;
    Integer openErrno;

    /** Unscripted calls fail like a syscall the kernel does not have (ENOSYS), as the vhost code would see them. */
    @Override
    protected RuntimeException unscripted(String call) {
        return new SyscallException(call, 38); // ENOSYS
    }

    StubSyscalls on(VhostIoctl op, IoctlHandler h) {
        ioctls.put(op.code(), h);
        return this;
    }

    StubSyscalls onU64(VhostIoctl op, long value) {
        return on(op, a -> {
            a.set(ValueLayout.JAVA_LONG, 0, value);
            return 0;
        });
    }

    StubSyscalls fail(VhostIoctl op, int errno) {
        return on(op, a -> {
            throw new SyscallException("ioctl " + op.kernelName(), errno);
        });
    }

    List<Call> calls(String what) {
        return calls.stream().filter(c -> c.what().equals(what)).toList();
    }

    List<Call> ioctlCalls(VhostIoctl op) {
        return calls.stream().filter(c -> c.what().equals("ioctl") && c.request() == op.code()).toList();
    }

    @Override
    public int open(String path, int flags) {
        calls.add(new Call("open " + path, flags, new byte[0], 0));
        if (openErrno != null) {
            throw new SyscallException("open " + path, openErrno);
        }
        return nextFd++;
    }

    @Override
    public void close(int fd) {
        closed.add(fd);
    }

    @Override
    public int ioctl(int fd, long request, MemorySegment arg) {
        calls.add(new Call("ioctl", request, arg.equals(MemorySegment.NULL) ? null : arg.toArray(ValueLayout.JAVA_BYTE), arg.address()));
        IoctlHandler h = ioctls.get(request);
        if (h == null) {
            throw new SyscallException("ioctl " + VhostIoctl.describe(request), Errno.ENOTTY);
        }
        return h.handle(arg);
    }

    @Override
    public long write(int fd, MemorySegment buf) {
        calls.add(new Call("write", 0, buf.toArray(ValueLayout.JAVA_BYTE), buf.address()));
        long r = writeAnswer.applyAsLong(buf);
        if (r < 0) {
            throw new SyscallException("write", (int) -r);
        }
        return r;
    }

    @Override
    public MemorySegment mmap(long length, int prot, int flags, int fd, long offset) {
        calls.add(new Call("mmap", flags, new byte[0], 0));
        return Arena.ofAuto().allocate(length, 4096); // real memory: nothing here touches it, but it may
    }

    @Override
    public void munmap(MemorySegment mapping) {
        calls.add(new Call("munmap", 0, new byte[0], mapping.address()));
    }

    @Override
    public int memfdCreate(String name, int flags) {
        calls.add(new Call("memfd " + name, flags, new byte[0], 0));
        return nextFd++;
    }

    @Override
    public void ftruncate(int fd, long length) {
        calls.add(new Call("ftruncate", length, new byte[0], 0));
    }

    @Override
    public int eventfd(int initialValue, int flags) {
        return nextFd++;
    }

    @Override
    public FileStat stat(String path) {
        FileStat s = stats.get(path);
        if (s == null) {
            throw new SyscallException("stat " + path, Errno.ENOENT);
        }
        return s;
    }

    @Override
    public List<String> listDirectory(String path) {
        List<String> d = dirs.get(path);
        if (d == null) {
            throw new SyscallException("opendir " + path, Errno.ENOENT);
        }
        return d;
    }

    @Override
    public byte[] readSmallFile(String path) {
        String f = files.get(path);
        if (f == null) {
            throw new SyscallException("open " + path, Errno.ENOENT);
        }
        return f.getBytes(StandardCharsets.US_ASCII);
    }
}
