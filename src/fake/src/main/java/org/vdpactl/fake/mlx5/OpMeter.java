package org.vdpactl.fake.mlx5;

import java.util.ArrayList;
import java.util.List;
import org.vdpactl.fake.model.OpCost;

/**
 * What one driver op has cost so far: time on the caller's path (serial: commands, host work,
 * waits), command counts, and work pushed to the MR garbage collector.
 */
final class OpMeter {
    private final CommandQueue queue;
    private double ms;
    private double deferredMs;
    private int sync;
    private int batches;
    private int asyncCommands;
    private final List<String> trace;

    OpMeter(CommandQueue queue, boolean traced) {
        this.queue = queue;
        this.trace = traced ? new ArrayList<>() : null;
    }

    /** Elapsed time of the op so far. */
    double elapsedMs() {
        return ms;
    }

    void host(double workMs) {
        ms += workMs;
    }

    void waitFor(double waitMs) {
        ms += waitMs;
    }

    void deferred(double workMs) {
        deferredMs += workMs;
    }

    /** One synchronous command; returns its errno (0 = success). */
    int sync(FwCommand c) {
        double fast = queue.syncMsWithoutFaults(c);
        int err = 0;
        if (Double.isNaN(fast)) {
            AsyncBatch.Result r = queue.sync(c);
            ms += r.durationMs();
            err = r.firstError();
        } else {
            ms += fast;
        }
        sync++;
        if (trace != null) {
            trace.add("sync " + c.opcode() + " " + c.object());
        }
        return err;
    }

    /** Synchronous commands one after another, stopping at the first error; returns it. */
    int syncAll(List<FwCommand> commands) {
        for (FwCommand c : commands) {
            int err = sync(c);
            if (err != 0) {
                return err;
            }
        }
        return 0;
    }

    /** One async batch; returns per-command results. */
    AsyncBatch.Result batch(List<FwCommand> commands) {
        AsyncBatch.Result r = queue.batch(commands);
        if (!commands.isEmpty()) {
            ms += r.durationMs();
            batches++;
            asyncCommands += commands.size();
            if (trace != null) {
                trace.add("batch " + commands.size() + " × " + commands.getFirst().opcode());
            }
        }
        return r;
    }

    /**
     * An async batch of one command; returns its errno. Without armed faults its duration is the
     * sync formula (one command meets a free FW server and a free slot, whatever their counts), so
     * it skips the simulation's arrays; it still counts as a batch. A GET_VRING_BASE on v6.12 is one.
     */
    int batchOfOne(FwCommand c) {
        double fast = queue.syncMsWithoutFaults(c);
        if (Double.isNaN(fast)) {
            return batch(List.of(c)).firstError();
        }
        ms += fast;
        batches++;
        asyncCommands++;
        if (trace != null) {
            trace.add("batch 1 × " + c.opcode());
        }
        return 0;
    }

    /** Adds another meter's totals (work done on this op's behalf, e.g. a synchronous GC flush). */
    void absorb(OpMeter other) {
        ms += other.ms;
        deferredMs += other.deferredMs;
        sync += other.sync;
        batches += other.batches;
        asyncCommands += other.asyncCommands;
        if (trace != null && other.trace != null) {
            trace.addAll(other.trace);
        }
    }

    List<String> trace() {
        return trace == null ? List.of() : List.copyOf(trace);
    }

    OpCost cost() {
        if (ms == 0 && deferredMs == 0 && sync == 0 && batches == 0 && asyncCommands == 0) {
            return OpCost.FREE; // most ops of a configure phase only store values
        }
        return new OpCost(nanos(ms), sync, batches, asyncCommands, nanos(deferredMs));
    }

    static long nanos(double millis) {
        return Math.round(millis * 1_000_000.0);
    }
}
