package org.vdpactl.vhost;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's RLIMIT_MEMLOCK, read with JNR-POSIX getrlimit(2). Used only for error hints: PA-mode
 * vhost-vdpa devices pin every mapped page and account it against this limit (CAP_IPC_LOCK does not
 * bypass it), so a too-low limit makes IOTLB UPDATEs fail.
 *
 * @param soft current (soft) limit in bytes; -1 = unlimited
 * @param hard hard limit in bytes; -1 = unlimited
 */
public record MemlockLimit(long soft, long hard) {
    private static final Logger LOG = LoggerFactory.getLogger(MemlockLimit.class);

    /** The limit of this process, or empty when it cannot be read (no native POSIX, non-Linux). */
    public static Optional<MemlockLimit> current() {
        try {
            jnr.posix.POSIX posix = org.vdpactl.sys.JnrPosix.get();
            jnr.posix.RLimit r = posix.getrlimit(jnr.constants.platform.RLIMIT.RLIMIT_MEMLOCK.intValue());
            return r == null ? Optional.empty() : Optional.of(new MemlockLimit(r.rlimCur(), r.rlimMax()));
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("getrlimit(RLIMIT_MEMLOCK) failed", e);
            return Optional.empty();
        }
    }

    private static String bytes(long v) {
        if (v == -1) {
            return "unlimited";
        }
        return v >= (1L << 20) ? (v >> 20) + " MiB (" + v + " bytes)" : v + " bytes";
    }

    /** "soft 8 MiB, hard 8 MiB". */
    public String describe() {
        return "soft " + bytes(soft) + ", hard " + bytes(hard);
    }

    /** The hint sentence for a mapping that needs {@code neededBytes} more pinned memory (≤ 0: unknown). */
    public static String hint(long neededBytes) {
        String limit = current().map(MemlockLimit::describe).orElse("unknown");
        return "RLIMIT_MEMLOCK may be too low for a PA-mode device (it pins every mapped page): current limit " + limit
                + (neededBytes > 0 ? "; this mapping needs " + bytes(neededBytes) + " pinned on top of what the process has pinned already" : "")
                + "; raise it (ulimit -l, systemd LimitMEMLOCK=, libvirt: guest RAM + 1 GiB per vDPA device)";
    }
}
