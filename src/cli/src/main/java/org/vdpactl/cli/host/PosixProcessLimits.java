package org.vdpactl.cli.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import jnr.constants.platform.RLIMIT;
import jnr.posix.POSIX;
import jnr.posix.RLimit;
import org.vdpactl.fake.ResourceLimit;
import org.vdpactl.sys.SyscallException;

/** This process's limits through JNR-POSIX's getrlimit/setrlimit. */
public final class PosixProcessLimits implements ProcessLimits {
    /** RLIM_INFINITY as JNR hands it back (an unsigned all-ones rlim_t read into a long). */
    private static final long RLIM_INFINITY = -1L;

    /** This process's limits, or empty where JNR-POSIX cannot bind libc. */
    public static Optional<ProcessLimits> current() {
        return HostPosix.posix().map(PosixProcessLimits::new);
    }

    private final POSIX posix;

    private PosixProcessLimits(POSIX posix) {
        this.posix = posix;
    }

    @Override
    public ResourceLimit nofile() {
        return get(RLIMIT.RLIMIT_NOFILE);
    }

    @Override
    public void setNofile(ResourceLimit limit) {
        set(RLIMIT.RLIMIT_NOFILE, limit);
    }

    @Override
    public ResourceLimit memlock() {
        return get(RLIMIT.RLIMIT_MEMLOCK);
    }

    @Override
    public void setMemlock(ResourceLimit limit) {
        set(RLIMIT.RLIMIT_MEMLOCK, limit);
    }

    @Override
    public int openDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private ResourceLimit get(RLIMIT resource) {
        RLimit r = posix.getrlimit(resource.intValue());
        return new ResourceLimit(fromRlim(r.rlimCur()), fromRlim(r.rlimMax()));
    }

    private void set(RLIMIT resource, ResourceLimit limit) {
        if (posix.setrlimit(resource.intValue(), toRlim(limit.soft()), toRlim(limit.hard())) != 0) {
            throw new SyscallException("setrlimit " + resource.name(), posix.errno());
        }
    }

    private static long fromRlim(long v) {
        return v == RLIM_INFINITY ? ResourceLimit.UNLIMITED : v;
    }

    private static long toRlim(long v) {
        return v == ResourceLimit.UNLIMITED ? RLIM_INFINITY : v;
    }
}
