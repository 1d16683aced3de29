package org.vdpactl.fake;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.vfs.EventFdFile;
import org.vdpactl.fake.vfs.FakeFile;
import org.vdpactl.fake.vfs.FakeMapping;
import org.vdpactl.fake.vfs.KernelConstants;
import org.vdpactl.fake.vfs.MemFdFile;
import org.vdpactl.fake.vfs.OpenFile;
import org.vdpactl.fake.vfs.PipeFile;
import org.vdpactl.fake.vfs.UserMemory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.mem.AddressSpace;
import org.vdpactl.fake.mem.HostReservation;
import org.vdpactl.fake.mem.Vma;
import org.vdpactl.abi.RequestTable;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.abi.UapiIoctl;

/**
 * A process of the fake kernel: its own fd table and its own address space ("mm", the identity
 * vhost's owner check compares), answering the {@link Syscalls} seam. The VFS part of each call
 * lives here (fd lookup → EBADF, access modes → EBADF/EACCES, generic ioctls, mmap argument
 * checks); the rest goes to the file's {@link FakeFile} operations. All threads that share this
 * object are threads of one process. {@link #close()} is process exit.
 */
public final class FakeProcess implements Syscalls, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FakeProcess.class);
    /** RLIMIT_MEMLOCK default of the fake: unlimited (a VMM raises it; Linux's default is 8 MiB). */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private final FakeKernel kernel;
    private final int pid;
    private final FdTable fds;
    private final AddressSpace mm;
    private final AtomicLong pinnedPages = new AtomicLong();
    private volatile ResourceLimit memlock = ResourceLimit.of(UNLIMITED);
    private volatile ResourceLimit nofile;
    private volatile Credentials credentials = Credentials.ROOT;
    private volatile boolean exited;

    FakeProcess(FakeKernel kernel, int pid, FdTable fds, AddressSpace mm, ResourceLimit nofile) {
        this.kernel = kernel;
        this.pid = pid;
        this.fds = fds;
        this.mm = mm;
        this.nofile = nofile;
        fds.setLimit(nofile.soft());
    }

    public int pid() {
        return pid;
    }

    public FakeKernel kernel() {
        return kernel;
    }

    /** The fake VMAs of this process (the vhost-vdpa VA-mode walk reads them). */
    AddressSpace addressSpace() {
        return mm;
    }

    /**
     * fork(): a child with a new identity (mm) that shares this process's open files (each fd refers
     * to the same open file description) and maps the same memory.
     */
    public FakeProcess fork() {
        return kernel.forkProcess(this, fds.copyForFork(), mm.copyForFork());
    }

    /** The process's uid/gid/groups for file permissions (default {@link Credentials#ROOT}). */
    public Credentials credentials() {
        return credentials;
    }

    /**
     * setfsuid/setfsgid/setgroups in one: from now on open(2) checks device nodes and sysfs files
     * against these credentials (a non-root process gets EACCES from a root-only node).
     */
    public void setCredentials(Credentials c) {
        credentials = Objects.requireNonNull(c);
    }

    /** RLIMIT_MEMLOCK set by the process's parent (soft and hard {@code bytes}), for PA-mode devices. */
    public void setMemlockLimit(long bytes) {
        memlock = ResourceLimit.of(bytes);
    }

    /** getrlimit(RLIMIT_MEMLOCK), in bytes (default {@link #UNLIMITED} for both). */
    public ResourceLimit memlockLimit() {
        return memlock;
    }

    /** setrlimit(RLIMIT_MEMLOCK): EINVAL when soft &gt; hard, EPERM when raising the hard limit without CAP_SYS_RESOURCE. */
    public void setMemlockLimit(ResourceLimit l) {
        call("setrlimit RLIMIT_MEMLOCK", () -> {
            checkNewLimit(memlock, l);
            memlock = l;
            return null;
        });
    }

    /** getrlimit(RLIMIT_NOFILE): the fd table refuses fds at or above the soft limit with EMFILE. */
    public ResourceLimit nofileLimit() {
        return nofile;
    }

    /**
     * setrlimit(RLIMIT_NOFILE) as kernel/sys.c's do_prlimit checks it: EINVAL when soft &gt; hard, EPERM
     * when hard exceeds fs.nr_open or when the hard limit is raised without CAP_SYS_RESOURCE (root here).
     */
    public void setNofileLimit(ResourceLimit l) {
        call("setrlimit RLIMIT_NOFILE", () -> {
            if (l.hard() > NR_OPEN) {
                throw KernelError.of(Errno.EPERM, "RLIMIT_NOFILE hard limit " + l.hard() + " above fs.nr_open " + NR_OPEN);
            }
            checkNewLimit(nofile, l);
            nofile = l;
            fds.setLimit(l.soft());
            return null;
        });
    }

    /**
     * RLIMIT_NOFILE as the process's parent or an administrator (prlimit(2) with CAP_SYS_RESOURCE) set
     * it, without the checks {@link #setNofileLimit} applies to the process's own changes.
     */
    public void inheritNofileLimit(ResourceLimit l) {
        if (l.soft() > l.hard()) {
            throw new IllegalArgumentException("soft limit above hard limit: " + l);
        }
        nofile = l;
        fds.setLimit(l.soft());
    }

    /** fs.nr_open's default (sysctl_nr_open, 1024 * 1024): no RLIMIT_NOFILE may go above it. */
    public static final long NR_OPEN = 1024 * 1024;

    private void checkNewLimit(ResourceLimit old, ResourceLimit l) {
        if (l.soft() > l.hard()) {
            throw KernelError.of(Errno.EINVAL, "soft limit " + l.soft() + " above hard limit " + l.hard());
        }
        if (l.hard() > old.hard() && !credentials.isRoot()) {
            throw KernelError.of(Errno.EPERM, "raising the hard limit needs CAP_SYS_RESOURCE");
        }
    }

    /** mm->pinned_vm in pages. */
    public long pinnedPages() {
        return pinnedPages.get();
    }

    /** The PA-mode pin check: {@code pages} more would stay within RLIMIT_MEMLOCK. */
    public boolean memlockAllows(long pages) {
        long limit = memlock.soft();
        return limit == UNLIMITED || pages + pinnedPages.get() <= limit / KernelConstants.PAGE_SIZE;
    }

    public void addPinnedPages(long pages) {
        pinnedPages.addAndGet(pages);
    }

    /** eventfd_ctx_fdget for kernel code: EBADF when not open, EINVAL when not an eventfd. */
    EventFdFile eventFdOf(int fd) {
        OpenFile f = fds.get(fd);
        try {
            if (f.file() instanceof EventFdFile e) {
                return e;
            }
            throw KernelError.of(Errno.EINVAL, "fd " + fd + " is a " + f.file().kind() + ", not an eventfd");
        } finally {
            f.release();
        }
    }

    /** The open file behind an fd, for tests and kernel code that need the object (no extra reference kept). */
    FakeFile fileOf(int fd) {
        OpenFile f = fds.get(fd);
        f.release();
        return f.file();
    }

    // ------------------------------------------------------------------ files

    @Override
    public int open(String path, int flags) {
        return call("open " + path, () -> {
            OpenFile f = kernel.openPath(this, path, flags);
            return fds.install(f, (flags & libc_h.O_CLOEXEC()) != 0);
        });
    }

    /** The holder of a /dev/vhost-vdpa-N node of this kernel, as the real side's /proc scan names it. */
    @Override
    public List<String> holdersOf(String path) {
        Matcher m = Pattern.compile("/dev/vhost-vdpa-(\\d{1,9})").matcher(path);
        if (!m.matches()) {
            return List.of();
        }
        return kernel.bus().node(Integer.parseInt(m.group(1))).flatMap(d -> d.node().holder()).stream().toList();
    }

    @Override
    public void close(int fd) {
        call("close", () -> {
            fds.remove(fd).release();
            return null;
        });
    }

    @Override
    public int ioctl(int fd, long request, MemorySegment arg) {
        long cmd = request & 0xFFFF_FFFFL;
        // the name only shows in errors, but every call needs one: vhost ioctls take a prebuilt one
        String op = IOCTL_OPS.get(cmd);
        if (op == null) {
            op = String.format("ioctl 0x%08X", cmd);
        }
        // the hottest syscall of a rehearsal: the same as withFile(op, fd, ...), without its two lambdas per call
        try {
            OpenFile f = fds.get(fd);
            try {
                return genericIoctl(fd, f, cmd, arg);
            } finally {
                f.release();
            }
        } catch (SyscallException | KernelError e) {
            throw translated(op, e);
        }
    }

    /** "ioctl VHOST_..." per vhost ioctl request number of the generated bindings, built once. */
    private static final RequestTable<String> IOCTL_OPS = ioctlOps();

    private static RequestTable<String> ioctlOps() {
        Map<Long, String> m = new HashMap<>();
        for (UapiIoctl io : UapiIoctl.values()) {
            m.put(io.request(), UapiIoctl.operation(io.request()));
        }
        return RequestTable.of(m);
    }

    private int genericIoctl(int fd, OpenFile f, long cmd, MemorySegment arg) {
        if (cmd == KernelConstants.FIOCLEX || cmd == KernelConstants.FIONCLEX) {
            fds.setCloseOnExec(fd, cmd == KernelConstants.FIOCLEX);
            return 0;
        }
        if (cmd == KernelConstants.FIONBIO) {
            f.setNonBlocking(UserMemory.readInt(arg, 0) != 0);
            return 0;
        }
        if (cmd == KernelConstants.FIOASYNC) {
            UserMemory.readInt(arg, 0);
            return 0;
        }
        return f.file().ioctl(this, f, cmd, arg);
    }

    @Override
    public long read(int fd, MemorySegment buf) {
        return withFile("read", fd, f -> {
            if (!f.readable()) {
                throw KernelError.of(Errno.EBADF, "fd " + fd + " not open for reading");
            }
            return f.file().read(this, f, buf);
        });
    }

    @Override
    public long write(int fd, MemorySegment buf) {
        return withFile("write", fd, f -> {
            if (!f.writable()) {
                throw KernelError.of(Errno.EBADF, "fd " + fd + " not open for writing");
            }
            return f.file().write(this, f, buf);
        });
    }

    @Override
    public int poll(int fd, int events, int timeoutMillis) {
        return call("poll", () -> {
            OpenFile f;
            try {
                f = fds.get(fd);
            } catch (KernelError e) {
                return libc_h.POLLNVAL();
            }
            try {
                return f.file().poll(this, f, events, timeoutMillis);
            } finally {
                f.release();
            }
        });
    }

    @Override
    public void ftruncate(int fd, long length) {
        withFile("ftruncate", fd, f -> {
            if (length < 0 || !f.writable()) {
                throw KernelError.of(Errno.EINVAL, length < 0 ? "negative length" : "fd not open for writing");
            }
            f.file().ftruncate(this, f, length);
            return null;
        });
    }

    // ------------------------------------------------------------------ file creators

    @Override
    public int memfdCreate(String name, int flags) {
        return call("memfd_create", () -> {
            int allowed = libc_h.MFD_CLOEXEC() | libc_h.MFD_ALLOW_SEALING() | KernelConstants.MFD_HUGETLB
                    | KernelConstants.MFD_NOEXEC_SEAL | KernelConstants.MFD_EXEC | KernelConstants.MFD_HUGE_MASK;
            if ((flags & ~allowed) != 0 || name.length() > 249) {
                throw KernelError.of(Errno.EINVAL, "memfd_create flags 0x" + Integer.toHexString(flags));
            }
            OpenFile f = new OpenFile(new MemFdFile(name, kernel.hostMemory()), libc_h.O_RDWR());
            return fds.install(f, (flags & libc_h.MFD_CLOEXEC()) != 0);
        });
    }

    @Override
    public int eventfd(int initialValue, int flags) {
        return call("eventfd", () -> {
            int allowed = libc_h.EFD_SEMAPHORE() | libc_h.EFD_CLOEXEC() | libc_h.EFD_NONBLOCK();
            if ((flags & ~allowed) != 0) {
                throw KernelError.of(Errno.EINVAL, "eventfd flags 0x" + Integer.toHexString(flags));
            }
            EventFdFile e = new EventFdFile(Integer.toUnsignedLong(initialValue),
                    (flags & libc_h.EFD_SEMAPHORE()) != 0, kernel.clock());
            OpenFile f = new OpenFile(e, libc_h.O_RDWR() | (flags & libc_h.EFD_NONBLOCK()));
            return fds.install(f, (flags & libc_h.EFD_CLOEXEC()) != 0);
        });
    }

    @Override
    public int[] pipe(int flags) {
        return call("pipe2", () -> {
            int allowed = libc_h.O_CLOEXEC() | libc_h.O_NONBLOCK() | KernelConstants.O_DIRECT;
            if ((flags & ~allowed) != 0) {
                throw KernelError.of(Errno.EINVAL, "pipe2 flags 0x" + Integer.toHexString(flags));
            }
            PipeFile[] ends = PipeFile.create(kernel.clock());
            int nb = flags & libc_h.O_NONBLOCK();
            boolean cloexec = (flags & libc_h.O_CLOEXEC()) != 0;
            OpenFile writeEnd = new OpenFile(ends[1], libc_h.O_WRONLY() | nb);
            int r = fds.install(new OpenFile(ends[0], libc_h.O_RDONLY() | nb), cloexec);
            int w;
            try {
                w = fds.install(writeEnd, cloexec);
            } catch (KernelError e) {
                fds.remove(r).release();
                throw e;
            }
            return new int[] {r, w};
        });
    }

    @Override
    public int socket(int domain, int type, int protocol) {
        return call("socket", () -> {
            int nonBlocking = (type & libc_h.SOCK_NONBLOCK()) != 0 ? libc_h.O_NONBLOCK() : 0;
            FakeFile file = kernel.createSocket(this, domain, type, protocol);
            return fds.install(new OpenFile(file, libc_h.O_RDWR() | nonBlocking), (type & libc_h.SOCK_CLOEXEC()) != 0);
        });
    }

    // ------------------------------------------------------------------ sockets

    @Override
    public void bind(int fd, MemorySegment addr) {
        withFile("bind", fd, f -> {
            f.file().bind(this, f, addr);
            return null;
        });
    }

    @Override
    public int getsockname(int fd, MemorySegment addr) {
        return withFile("getsockname", fd, f -> f.file().getsockname(this, f, addr));
    }

    @Override
    public void setsockopt(int fd, int level, int name, int value) {
        withFile("setsockopt " + level + "/" + name, fd, f -> {
            f.file().setsockopt(this, f, level, name, value);
            return null;
        });
    }

    @Override
    public long sendto(int fd, MemorySegment buf, int flags, MemorySegment addr) {
        return withFile("sendto", fd, f -> f.file().sendto(this, f, buf, flags, addr));
    }

    @Override
    public long recvfrom(int fd, MemorySegment buf, int flags) {
        return withFile("recvfrom", fd, f -> f.file().recvfrom(this, f, buf, flags));
    }

    // ------------------------------------------------------------------ memory

    @Override
    public MemorySegment mmap(long length, int prot, int flags, int fd, long offset) {
        return call("mmap", () -> {
            int type = flags & KernelConstants.MAP_TYPE;
            boolean shared = type == libc_h.MAP_SHARED() || type == 3; // MAP_SHARED_VALIDATE
            if (!shared && type != libc_h.MAP_PRIVATE()) {
                throw KernelError.of(Errno.EINVAL, "mmap needs MAP_SHARED or MAP_PRIVATE");
            }
            if (length <= 0 || (offset & (KernelConstants.PAGE_SIZE - 1)) != 0) {
                throw KernelError.of(Errno.EINVAL, "mmap length " + length + " offset " + offset);
            }
            if ((flags & KernelConstants.MAP_FIXED) != 0) {
                throw KernelError.of(Errno.EINVAL, "the fake kernel does not place MAP_FIXED mappings");
            }
            long len = MemFdFile.roundUp(length);
            if (len <= 0) {
                throw KernelError.of(Errno.ENOMEM, "mmap length overflows");
            }
            FakeMapping m;
            if ((flags & libc_h.MAP_ANONYMOUS()) != 0) {
                HostReservation r = kernel.hostMemory().reserve(len);
                // MAP_SHARED|MAP_ANONYMOUS is shmem: a file of its own, so vhost-vdpa maps it
                m = new FakeMapping(r, 0, len, shared ? new Object() : null, shared, false);
            } else {
                m = withFile("mmap", fd, f -> {
                    if (!f.readable() || (shared && (prot & libc_h.PROT_WRITE()) != 0 && !f.writable())) {
                        throw KernelError.of(Errno.EACCES, "fd " + fd + " access mode does not allow this mapping");
                    }
                    return f.file().mmap(this, f, len, prot, flags, offset);
                });
            }
            MemorySegment mem = m.memory();
            mm.add(new Vma(mem.address(), mem.address() + len, m.file(), m.shared(), (prot & libc_h.PROT_WRITE()) != 0, m.io(),
                    m.reservation()));
            return mem.asSlice(0, length);
        });
    }

    @Override
    public void munmap(MemorySegment mapping) {
        call("munmap", () -> {
            long len = MemFdFile.roundUp(mapping.byteSize());
            if ((mapping.address() & (KernelConstants.PAGE_SIZE - 1)) != 0 || len == 0) {
                throw KernelError.of(Errno.EINVAL, "munmap of an unaligned or empty range");
            }
            mm.remove(mapping.address(), len);
            return null;
        });
    }

    // ------------------------------------------------------------------ file system questions

    @Override
    public FileStat stat(String path) {
        return call("stat " + path, () -> kernel.sysfs().stat(path));
    }

    @Override
    public List<String> listDirectory(String path) {
        return call("opendir " + path, () -> kernel.sysfs().list(path));
    }

    @Override
    public byte[] readSmallFile(String path) {
        return call("read " + path, () -> kernel.sysfs().read(path));
    }

    // ------------------------------------------------------------------ exit

    /**
     * Whether every fd installed from now on records the stack that opened it, so that
     * {@link #openFds()} can say where a leaked descriptor came from (the test kit turns this on).
     */
    public void recordOpenSites(boolean on) {
        fds.recordOpenSites(on);
    }

    /** The descriptors open now, lowest first. */
    public List<OpenFd> openFds() {
        return fds.openFds();
    }

    /** Process exit: every fd closed, every mapping dropped. Idempotent. */
    @Override
    public void close() {
        if (exited) {
            return;
        }
        exited = true;
        for (OpenFile f : fds.clear()) {
            try {
                f.release();
            } catch (RuntimeException e) {
                LOG.warn("pid {}: release of {} at exit failed", pid, f, e);
            }
        }
        mm.clear();
    }

    @Override
    public String toString() {
        return "fake process " + pid;
    }

    // ------------------------------------------------------------------ plumbing

    private interface FileCall<T> {
        T apply(OpenFile f);
    }

    private <T> T withFile(String op, int fd, FileCall<T> body) {
        return call(op, () -> {
            OpenFile f = fds.get(fd);
            try {
                return body.apply(f);
            } finally {
                f.release();
            }
        });
    }

    private static <T> T call(String op, Supplier<T> body) {
        try {
            return body.get();
        } catch (SyscallException | KernelError e) {
            throw translated(op, e);
        }
    }

    /** What a failed syscall {@code op} throws: a kernel error as its errno, a nested syscall's under this name. */
    private static SyscallException translated(String op, RuntimeException e) {
        if (e instanceof KernelError k) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("{}: {} ({})", op, Errno.name(k.errno()), k.getMessage());
            }
            return new FakeSyscallException(op, k.errno(), k.getMessage());
        }
        if (e instanceof FakeSyscallException f) {
            return f.operation().equals(op) ? f : f.withOperation(op);
        }
        return (SyscallException) e;
    }
}
