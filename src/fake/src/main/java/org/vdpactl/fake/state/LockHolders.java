package org.vdpactl.fake.state;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which process holds a file's fcntl lock, as the kernel knows it ({@code /proc/locks}), not as a
 * holder wrote it into the lock file: the file's content is written only after the lock is taken
 * and stays there after it is released, so a waiter that trusted it named a previous holder (often
 * itself: 39 of 65 rehearsals) or "another process" while the next holder had not written yet.
 */
final class LockHolders {
    /** The kernel's answer could not be read (no /proc, another OS): fall back to the file's content. */
    static final long UNKNOWN = -2;
    /** No process holds a lock on the file now. */
    static final long NONE = -1;
    private static final Path PROC_LOCKS = Path.of("/proc/locks");

    private LockHolders() {
    }

    /** The pid holding a granted POSIX lock on {@code file}, {@link #NONE}, or {@link #UNKNOWN}. */
    static long pidHolding(Path file) {
        String id;
        String locks;
        try {
            long dev = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
            long ino = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
            // st_dev as glibc encodes it; /proc/locks prints the kernel's MAJOR:MINOR in hex
            long major = ((dev >>> 8) & 0xFFF) | ((dev >>> 32) & ~0xFFFL);
            long minor = (dev & 0xFF) | ((dev >>> 12) & ~0xFFL);
            id = String.format("%02x:%02x:%d", major, minor, ino);
            locks = Files.readString(PROC_LOCKS);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return UNKNOWN;
        }
        return pidIn(locks, id);
    }

    /** The pid of the granted lock on {@code id} ("08:01:1234") in a /proc/locks text, else {@link #NONE}. */
    static long pidIn(String procLocks, String id) {
        for (String line : procLocks.split("\n")) {
            String[] t = line.trim().split("\\s+");
            if (t.length < 6 || t[1].equals("->")) {
                continue; // a blocked waiter's request, not a holder
            }
            for (int i = 1; i < t.length; i++) {
                if (t[i].equals(id)) {
                    try {
                        long pid = Long.parseLong(t[i - 1]);
                        if (pid > 0) {
                            return pid;
                        }
                    } catch (NumberFormatException e) {
                        // not a pid column: another format, keep looking
                    }
                }
            }
        }
        return NONE;
    }
}
