package org.vdpactl.fake;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.vdpactl.fake.vfs.KernelConstants;
import org.vdpactl.fake.vfs.OpenFile;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.sys.Errno;

/**
 * A process's file descriptor table: lowest free number from 3 up (0-2 are the stdio the fake does
 * not model), close-on-exec flags, RLIMIT_NOFILE.
 *
 * <p>Lookups do not lock, as in the kernel (fdget under RCU): every thread of a process looks an fd
 * up on every call, and a table-wide lock made all devices of a rehearsal queue behind each other
 * (the top contended monitor at 64 devices). Changes happen under the table's lock and publish a
 * new lookup array; a lookup that races with close either sees the file (the call then holds its
 * own reference) or EBADF, both of which a racing close allows on Linux.
 */
final class FdTable {
    static final int FIRST_FD = 3;
    private final TreeMap<Integer, OpenFile> fds = new TreeMap<>();
    /** fd -> open file, republished on every change; read without the lock. */
    private volatile OpenFile[] lookup = new OpenFile[0];
    private final Set<Integer> cloexec = new HashSet<>();
    /** RLIMIT_NOFILE's soft limit: alloc_fd refuses an fd at or above it (read at each install, as the kernel does). */
    private volatile int limit;
    /** fd -> where it was installed, while {@link #recordOpenSites} is on (the test kit's leak report). */
    private final Map<Integer, Throwable> openSites = new HashMap<>();
    private volatile boolean recordOpenSites;

    FdTable(int limit) {
        this.limit = limit;
    }

    /** setrlimit(RLIMIT_NOFILE) took effect: later installs check {@code soft} (open fds above it stay open). */
    void setLimit(long soft) {
        limit = (int) Math.min(Integer.MAX_VALUE, soft);
    }

    /** Installs a file at the lowest free fd; EMFILE when the table is full (the reference is then dropped). */
    synchronized int install(OpenFile file, boolean closeOnExec) {
        int fd = FIRST_FD;
        for (int used : fds.keySet()) {
            if (used != fd) {
                break;
            }
            fd++;
        }
        if (fd >= limit) {
            file.release();
            throw KernelError.of(KernelConstants.EMFILE, "fd table full (" + limit + ")");
        }
        fds.put(fd, file);
        if (recordOpenSites) {
            openSites.put(fd, new Throwable("fd " + fd + " opened here"));
        }
        if (closeOnExec) {
            cloexec.add(fd);
        }
        publish();
        return fd;
    }

    /** The file at {@code fd} with an extra reference for the call, or EBADF. */
    OpenFile get(int fd) {
        OpenFile[] l = lookup;
        OpenFile f = fd >= 0 && fd < l.length ? l[fd] : null;
        if (f != null && f.tryRetain()) {
            return f;
        }
        return lockedGet(fd);
    }

    private synchronized OpenFile lockedGet(int fd) {
        OpenFile f = fds.get(fd);
        if (f == null) {
            throw KernelError.of(Errno.EBADF, "fd " + fd + " is not open");
        }
        return f.retain();
    }

    /** Called with the lock held after every change of {@link #fds}. */
    private void publish() {
        OpenFile[] l = new OpenFile[fds.isEmpty() ? 0 : fds.lastKey() + 1];
        fds.forEach((fd, f) -> l[fd] = f);
        lookup = l;
    }

    /** Removes {@code fd}; the caller drops the returned reference. EBADF when not open. */
    synchronized OpenFile remove(int fd) {
        OpenFile f = fds.remove(fd);
        if (f == null) {
            throw KernelError.of(Errno.EBADF, "fd " + fd + " is not open");
        }
        cloexec.remove(fd);
        openSites.remove(fd);
        publish();
        return f;
    }

    /** Whether installs from now on record their call stack (costs a stack walk per open). */
    void recordOpenSites(boolean on) {
        recordOpenSites = on;
    }

    /** Every open fd with its file and, when recorded, the stack that installed it. */
    synchronized List<OpenFd> openFds() {
        List<OpenFd> out = new ArrayList<>();
        fds.forEach((fd, f) -> {
            Throwable site = openSites.get(fd);
            out.add(new OpenFd(fd, f.file().describe(), site == null ? List.of() : List.of(site.getStackTrace())));
        });
        return out;
    }

    synchronized void setCloseOnExec(int fd, boolean on) {
        if (on) {
            cloexec.add(fd);
        } else {
            cloexec.remove(fd);
        }
    }

    synchronized boolean closeOnExec(int fd) {
        return cloexec.contains(fd);
    }

    synchronized Map<Integer, OpenFile> snapshot() {
        return new TreeMap<>(fds);
    }

    /** A copy for fork: same open file descriptions, one more reference each. */
    synchronized FdTable copyForFork() {
        FdTable child = new FdTable(limit);
        fds.forEach((fd, f) -> child.fds.put(fd, f.retain()));
        child.cloexec.addAll(cloexec);
        child.publish();
        return child;
    }

    /** Empties the table and returns what it held (process exit). */
    synchronized List<OpenFile> clear() {
        List<OpenFile> out = new ArrayList<>(fds.values());
        fds.clear();
        cloexec.clear();
        openSites.clear();
        publish();
        return out;
    }
}
