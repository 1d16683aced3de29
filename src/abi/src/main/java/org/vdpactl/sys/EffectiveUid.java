package org.vdpactl.sys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * The effective uid of this process, the one place vdpactl asks it: the second field of the "Uid:"
 * line of /proc/self/status (real, effective, saved set, filesystem: the kernel's proc_pid_status
 * order), so no native binding is needed for geteuid(2).
 */
public final class EffectiveUid {
    private static final String FIELD = "Uid:";

    private EffectiveUid() {
    }

    /** This process's effective uid, or empty when /proc is not there to say. */
    public static OptionalInt current() {
        return in(Path.of("/proc"));
    }

    /** The effective uid that {@code proc}/self/status names (a procfs mount, or a copy of one in tests). */
    public static OptionalInt in(Path proc) {
        try {
            return parse(Files.readString(proc.resolve("self/status"), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return OptionalInt.empty();
        }
    }

    /** The effective uid of a /proc/PID/status text, or empty when it has no well-formed "Uid:" line. */
    public static OptionalInt parse(String statusText) {
        return statusText.lines()
                .filter(l -> l.startsWith(FIELD))
                .map(l -> l.substring(FIELD.length()).trim().split("\\s+"))
                .filter(f -> f.length == 4 && f[1].matches("\\d+"))
                .mapToInt(f -> Integer.parseUnsignedInt(f[1]))
                .findFirst();
    }
}
