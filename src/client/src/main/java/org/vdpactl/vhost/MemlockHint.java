package org.vdpactl.vhost;

import org.vdpactl.sys.MemlockLimit;

/** The sentence that explains a refused pinning mapping with this process's RLIMIT_MEMLOCK. */
public final class MemlockHint {
    private MemlockHint() {
    }

    /** The hint for a mapping that needs {@code neededBytes} more pinned memory (≤ 0: unknown). */
    public static String of(long neededBytes) {
        String limit = MemlockLimit.current().map(MemlockLimit::describe).orElse("unknown");
        return "RLIMIT_MEMLOCK may be too low for a PA-mode device (it pins every mapped page): current limit " + limit
                + (neededBytes > 0 ? "; this mapping needs " + MemlockLimit.bytes(neededBytes) + " pinned on top of what the process has pinned already" : "")
                + "; raise it (ulimit -l, systemd LimitMEMLOCK=, libvirt: guest RAM + 1 GiB per vDPA device)";
    }
}
