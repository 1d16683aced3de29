package org.vdpactl.fake.state;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a process's {@link HolderActivity} from Linux's per-thread accounts: {@code /proc/<pid>/task/<tid>/schedstat}
 * ("run-ns run-queue-ns timeslices", kept by every kernel built with CONFIG_SCHED_INFO, which Debian's are) and the
 * state letter of {@code /proc/<pid>/task/<tid>/stat}. Where schedstat is missing it falls back to the process's CPU
 * time as {@link ProcessHandle} reports it (no run-queue time, no I/O state: CPU alone, as before).
 */
final class ProcTaskAccounts {
    static final ProcTaskAccounts SYSTEM = new ProcTaskAccounts(Path.of("/proc"));

    private final Path proc;

    ProcTaskAccounts(Path proc) {
        this.proc = proc;
    }

    HolderActivity of(long pid) {
        if (pid <= 0) {
            return HolderActivity.UNKNOWN;
        }
        Map<Long, Long> busy = new HashMap<>();
        boolean io = false;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve(Long.toString(pid)).resolve("task"))) {
            for (Path task : tasks) {
                try {
                    String[] sched = Files.readString(task.resolve("schedstat")).trim().split("\\s+");
                    long tid = Long.parseLong(task.getFileName().toString());
                    busy.put(tid, Long.parseLong(sched[0]) + Long.parseLong(sched[1]));
                    io |= stateOf(Files.readString(task.resolve("stat"))) == 'D';
                } catch (NoSuchFileException e) {
                    // the thread ended between the listing and the read, or no schedstat: the fallback below
                }
            }
        } catch (IOException | RuntimeException e) {
            busy.clear(); // no such process, another OS, or a line in another format
        }
        if (busy.isEmpty()) {
            return cpuOnly(pid);
        }
        return new HolderActivity(busy, io);
    }

    /** The state letter of a /proc stat line: after the command's closing parenthesis (the command may hold any). */
    static char stateOf(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 >= stat.length()) {
            throw new IllegalArgumentException("not a /proc stat line: " + stat);
        }
        return stat.charAt(close + 2);
    }

    private static HolderActivity cpuOnly(long pid) {
        long cpu = ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(d -> d.toNanos()).orElse(-1L);
        return cpu < 0 ? HolderActivity.UNKNOWN : new HolderActivity(Map.of(0L, cpu), false);
    }
}
