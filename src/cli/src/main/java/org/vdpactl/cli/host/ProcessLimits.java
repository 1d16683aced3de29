package org.vdpactl.cli.host;

import org.vdpactl.fake.ResourceLimit;

/**
 * The resource limits of the process that opens the devices: the real one (JNR-POSIX) on the
 * kernel, the fake process on the fake backend (which starts with the real process's RLIMIT_NOFILE,
 * so a host's low limit shows on the fake too).
 */
public interface ProcessLimits {
    /** getrlimit(RLIMIT_NOFILE). */
    ResourceLimit nofile();

    /** setrlimit(RLIMIT_NOFILE); a refused change throws {@link org.vdpactl.sys.SyscallException}. */
    void setNofile(ResourceLimit limit);

    /** getrlimit(RLIMIT_MEMLOCK), in bytes. */
    ResourceLimit memlock();

    /** setrlimit(RLIMIT_MEMLOCK); a refused change throws {@link org.vdpactl.sys.SyscallException}. */
    void setMemlock(ResourceLimit limit);

    /** How many file descriptors the process holds open now. */
    int openDescriptors();
}
