package org.vdpactl.fake.state;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.InputFile;

/**
 * The seam through which tests make the state's own files fail as a full disk or an unwritable
 * directory would, and count how often they are locked, read or written (tests run as root, who ignores permissions, and cannot mount a tiny tmpfs).
 * A fault covers one directory only, so tests running in parallel on other directories are not
 * touched; without one, {@link #check} does nothing.
 */
public final class StateFileFaults {
    /** Which file operation of the state fails. */
    public enum Step { LOCK, READ, WRITE }

    private static final Map<Path, Map<Step, Integer>> FAULTS = new ConcurrentHashMap<>();
    private static final Map<Path, Map<Step, LongAdder>> COUNTS = new ConcurrentHashMap<>();

    /** How many times a step ran on files of one directory since {@link #count} (how often a state was written). */
    public static final class Counter implements AutoCloseable {
        private final Path dir;
        private final Step step;
        private final LongAdder n = new LongAdder();

        private Counter(Path dir, Step step) {
            this.dir = dir;
            this.step = step;
        }

        public long value() {
            return n.sum();
        }

        @Override
        public void close() {
            COUNTS.computeIfPresent(dir, (k, m) -> {
                m.remove(step, n);
                return m.isEmpty() ? null : m;
            });
        }
    }

    private StateFileFaults() {
    }

    /**
     * Until closed, {@code step} on files in {@code dir} fails with {@code errno}, thrown as the JDK
     * throws it (AccessDeniedException for EACCES, else a FileSystemException with the errno's text).
     */
    public static AutoCloseable inject(Path dir, Step step, int errno) {
        Path key = dir.toAbsolutePath().normalize();
        FAULTS.computeIfAbsent(key, k -> new ConcurrentHashMap<>()).put(step, errno);
        return () -> FAULTS.computeIfPresent(key, (k, m) -> {
            m.remove(step);
            return m.isEmpty() ? null : m;
        });
    }

    /** Until closed, counts {@code step} on files in {@code dir}: one count per lock taken, file read or file written. */
    public static Counter count(Path dir, Step step) {
        Path key = dir.toAbsolutePath().normalize();
        Counter c = new Counter(key, step);
        COUNTS.computeIfAbsent(key, k -> new ConcurrentHashMap<>()).put(step, c.n);
        return c;
    }

    static void check(Path file, Step step) throws IOException {
        if (FAULTS.isEmpty() && COUNTS.isEmpty()) {
            return;
        }
        Map<Step, LongAdder> counts = COUNTS.get(file.toAbsolutePath().normalize().getParent());
        if (counts != null && counts.containsKey(step)) {
            counts.get(step).increment();
        }
        Map<Step, Integer> m = FAULTS.get(file.toAbsolutePath().normalize().getParent());
        Integer errno = m == null ? null : m.get(step);
        if (errno == null) {
            return;
        }
        if (errno == Errno.EACCES) {
            throw new AccessDeniedException(file.toString());
        }
        throw new FileSystemException(file.toString(), null, InputFile.strerror(errno));
    }
}
