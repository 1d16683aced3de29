package org.vdpactl.sim;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import org.vdpactl.sys.ThreadAccounts;

/**
 * This process's CPU time to the nanosecond: the sum of the run time of every thread it has now, from Linux's
 * per-thread accounts ({@link ThreadAccounts}: the schedstat of each of {@code /proc/self/task}, ns on a CPU).
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
        List<ThreadAccounts.Account> threads = ThreadAccounts.of(tasks, false);
        if (threads.isEmpty()) {
            return fallback(); // no /proc, another OS, or a line in another format
        }
        long sum = 0;
        for (ThreadAccounts.Account t : threads) {
            sum += t.runNanos(); // run-queue time is waiting, not CPU
        }
        return sum;
    }

    private static long fallback() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                ? Math.max(0, os.getProcessCpuTime()) : 0;
    }
}
