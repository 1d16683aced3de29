package org.vdpactl.sys;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Linux's accounts of a process's threads, the one reader of them: {@code TASKS/TID/schedstat} ("run-ns run-queue-ns
 * timeslices", kept by every kernel built with CONFIG_SCHED_INFO, as Debian's are) and, when asked, the state letter
 * of {@code TASKS/TID/stat}, where TASKS is {@code /proc/self/task} or {@code /proc/PID/task}.
 *
 * <p>Its readers: the fake's lock waiters judge a holder by its run plus run-queue time and its state D (a slow
 * holder is not a stuck one), and the orchestration bench sums its own run time to the nanosecond (the JDK's
 * process CPU time moves in 10 ms clock ticks).
 */
public final class ThreadAccounts {
    /** No state letter: {@link #of(Path, boolean)} was not asked for it. */
    public static final char STATE_NOT_READ = '?';

    /**
     * One thread at the look.
     *
     * @param tid         the thread's id (its directory's name)
     * @param runNanos    time it ran on a CPU
     * @param queuedNanos time it waited on a run queue for a CPU
     * @param state       the state letter of its stat line (R, S, D, T …), or {@link #STATE_NOT_READ}
     */
    public record Account(long tid, long runNanos, long queuedNanos, char state) {
    }

    private ThreadAccounts() {
    }

    /**
     * The threads under {@code tasks} at one look. A thread that ended between the listing and its read (its files
     * gone) is left out; the whole look is empty when the directory cannot be read (no such process, no /proc,
     * another OS) or a line is in another format, so that a caller falls back to a coarser figure rather than
     * taking half a process for all of it.
     */
    public static List<Account> of(Path tasks, boolean withState) {
        List<Account> threads = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                try {
                    String line = Files.readString(task.resolve("schedstat"));
                    String[] f = line.trim().split(" ", 3);
                    char state = withState ? stateOf(Files.readString(task.resolve("stat"))) : STATE_NOT_READ;
                    threads.add(new Account(Long.parseLong(task.getFileName().toString()), Long.parseLong(f[0]),
                            Long.parseLong(f[1]), state));
                } catch (NoSuchFileException e) {
                    // the thread ended between the listing and the read, or the kernel keeps no schedstat
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        return List.copyOf(threads);
    }

    /** The state letter of a /proc stat line: after the command's closing parenthesis (the command may hold any). */
    public static char stateOf(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 >= stat.length()) {
            throw new IllegalArgumentException("not a /proc stat line: " + stat);
        }
        return stat.charAt(close + 2);
    }
}
