package org.vdpactl.fake.state;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.vdpactl.sys.ThreadAccounts;

/**
 * Reads a process's {@link HolderActivity} from Linux's per-thread accounts ({@link ThreadAccounts}: run plus
 * run-queue time, and state D for I/O). Where they are missing it falls back to the process's CPU time as
 * {@link ProcessHandle} reports it (no run-queue time, no I/O state: CPU alone, as before).
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
        List<ThreadAccounts.Account> threads = ThreadAccounts.of(proc.resolve(Long.toString(pid)).resolve("task"), true);
        if (threads.isEmpty()) {
            return cpuOnly(pid);
        }
        Map<Long, Long> busy = new HashMap<>();
        boolean io = false;
        for (ThreadAccounts.Account t : threads) {
            busy.put(t.tid(), t.runNanos() + t.queuedNanos());
            io |= t.state() == 'D';
        }
        return new HolderActivity(busy, io);
    }

    private static HolderActivity cpuOnly(long pid) {
        long cpu = ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(d -> d.toNanos()).orElse(-1L);
        return cpu < 0 ? HolderActivity.UNKNOWN : new HolderActivity(Map.of(0L, cpu), false);
    }
}
