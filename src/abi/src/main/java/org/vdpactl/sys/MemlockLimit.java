package org.vdpactl.sys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's RLIMIT_MEMLOCK, the one place vdpactl reads it. PA-mode vhost-vdpa devices pin every
 * mapped page and account it against this limit (CAP_IPC_LOCK does not bypass it), so a too-low
 * limit makes IOTLB UPDATEs fail. It is read from /proc/self/limits (the kernel's proc_pid_limits
 * prints the same struct rlimit getrlimit(2) returns), which needs no native binding.
 *
 * @param soft current (soft) limit in bytes; -1 = unlimited (RLIM_INFINITY)
 * @param hard hard limit in bytes; -1 = unlimited
 */
public record MemlockLimit(long soft, long hard) {
    /** RLIM_INFINITY as a signed long, and what /proc/self/limits prints as "unlimited". */
    public static final long UNLIMITED = -1;
    private static final Logger LOG = LoggerFactory.getLogger(MemlockLimit.class);
    private static final Path LIMITS = Path.of("/proc/self/limits");
    private static final String ROW = "Max locked memory";

    /** The limit of this process, or empty when it cannot be read (no /proc). */
    public static Optional<MemlockLimit> current() {
        try {
            return parse(Files.readString(LIMITS, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            LOG.debug("cannot read RLIMIT_MEMLOCK from {}", LIMITS, e);
            return Optional.empty();
        }
    }

    /**
     * The "Max locked memory" row of a /proc/PID/limits text ("Max locked memory  8388608  8388608  bytes"),
     * or empty when the text has no such row or it is not two limits.
     */
    public static Optional<MemlockLimit> parse(String limitsText) {
        return limitsText.lines()
                .filter(l -> l.startsWith(ROW))
                .map(l -> l.substring(ROW.length()).trim().split("\\s+"))
                .filter(f -> f.length >= 2)
                .findFirst()
                .flatMap(f -> {
                    try {
                        return Optional.of(new MemlockLimit(value(f[0]), value(f[1])));
                    } catch (NumberFormatException e) {
                        return Optional.empty();
                    }
                });
    }

    private static long value(String field) {
        return field.equals("unlimited") ? UNLIMITED : Long.parseUnsignedLong(field);
    }

    /** "8 MiB (8388608 bytes)", "unlimited". */
    public static String bytes(long v) {
        if (v == UNLIMITED) {
            return "unlimited";
        }
        return v >= (1L << 20) ? (v >> 20) + " MiB (" + v + " bytes)" : v + " bytes";
    }

    /** "soft 8 MiB, hard 8 MiB". */
    public String describe() {
        return "soft " + bytes(soft) + ", hard " + bytes(hard);
    }
}
