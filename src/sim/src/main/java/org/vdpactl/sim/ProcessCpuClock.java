package org.vdpactl.sim;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * This process's CPU time to the nanosecond: the sum of the run time of every thread it has now, from Linux's
 * per-thread accounts ({@code /proc/self/task/TID/schedstat}, first field: ns on a CPU; kept by every kernel
 * built with CONFIG_SCHED_INFO, as Debian's are).
 *
 * <p>Why not {@link OperatingSystemMXBean#getProcessCpuTime()}: on Linux the JDK reads it with times(2), in
 * clock ticks (10 ms at USER_HZ 100), so the CPU of a window of a few hundred calls read as 0 and that of 256
 * devices' windows moved in 10 ms steps (7 to 14 % of the figure). A difference of two readings misses only
 * the threads that ended between them; the bench reads it around one window, whose lane threads live through
 * it. Where schedstat is missing the bean's figure is the fallback.
 */
final class ProcessCpuClock {
    static final ProcessCpuClock SYSTEM = new ProcessCpuClock(Path.of("/proc/self/task"));

    private final Path tasks;

    ProcessCpuClock(Path tasks) {
        this.tasks = tasks;
    }

    /** CPU time of the process's live threads so far, in ns (the fallback: the JVM's figure, or 0). */
    long nanos() {
        long sum = 0;
        boolean any = false;
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                try {
                    String line = Files.readString(task.resolve("schedstat"));
                    int end = line.indexOf(' ');
                    sum += Long.parseLong(end < 0 ? line.trim() : line.substring(0, end));
                    any = true;
                } catch (NoSuchFileException e) {
                    // the thread ended between the listing and the read: its time is no longer the process's here
                }
            }
        } catch (IOException | RuntimeException e) {
            any = false; // no /proc, another OS, or a line in another format
        }
        return any ? sum : fallback();
    }

    private static long fallback() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                ? Math.max(0, os.getProcessCpuTime()) : 0;
    }
}
