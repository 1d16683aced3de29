package org.vdpactl.fake.model;

/**
 * What one driver operation cost on the modelled hardware: time on the caller's path, plus the
 * firmware command counts that explain it (tests assert the counts, never wall time).
 *
 * @param nanos         time the calling thread is blocked (the critical-path contribution)
 * @param syncCommands  firmware commands issued one at a time
 * @param asyncBatches  async command batches issued
 * @param asyncCommands commands inside those batches
 * @param deferredNanos work pushed off the caller's path (e.g. MR destruction by the 6.12 GC)
 */
public record OpCost(long nanos, int syncCommands, int asyncBatches, int asyncCommands, long deferredNanos) {
    public static final OpCost FREE = new OpCost(0, 0, 0, 0, 0);

    public static OpCost ofMillis(double ms) {
        return new OpCost(Math.round(ms * 1_000_000.0), 0, 0, 0, 0);
    }

    public OpCost plus(OpCost o) {
        if (o.isFree()) {
            return this;
        }
        return new OpCost(nanos + o.nanos, syncCommands + o.syncCommands, asyncBatches + o.asyncBatches,
                asyncCommands + o.asyncCommands, deferredNanos + o.deferredNanos);
    }

    /** True when nothing was spent or issued. */
    public boolean isFree() {
        return nanos == 0 && syncCommands == 0 && asyncBatches == 0 && asyncCommands == 0 && deferredNanos == 0;
    }

    public double millis() {
        return nanos / 1_000_000.0;
    }
}
