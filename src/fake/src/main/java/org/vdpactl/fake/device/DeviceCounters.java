package org.vdpactl.fake.device;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import org.vdpactl.fake.model.OpCost;

/**
 * What one fake device did: driver ops by name (calls, failures, modelled cost) and the firmware
 * command counts behind them. The rehearsal reports these; tests assert them.
 */
public final class DeviceCounters {
    // a hash map: record() runs on every device op (a String compareTo chain per op in a TreeMap);
    // the snapshot is unordered anyway (Map.copyOf)
    private final Map<String, long[]> ops = new HashMap<>();
    private OpCost total = OpCost.FREE;
    private long kicks;
    private long kicksWhileSuspended;

    /** Per-op figures. */
    public record OpStats(long calls, long failures, long nanos, long syncCommands, long asyncBatches,
                          long asyncCommands, long deferredNanos) {
    }

    /**
     * An immutable copy.
     *
     * @param ops    per driver op ("set_map", "suspend", …)
     * @param total  sum of all op costs
     * @param kicks  virtqueue kicks the device received
     * @param kicksWhileSuspended kicks remembered while suspended
     */
    public record Snapshot(Map<String, OpStats> ops, OpCost total, long kicks, long kicksWhileSuspended) {
        /** Calls of one op (0 when never called). */
        public long calls(String op) {
            OpStats s = ops.get(op);
            return s == null ? 0 : s.calls();
        }
    }

    synchronized void record(String op, OpCost cost) {
        long[] a = ops.computeIfAbsent(op, k -> new long[7]);
        a[0]++;
        a[2] += cost.nanos();
        a[3] += cost.syncCommands();
        a[4] += cost.asyncBatches();
        a[5] += cost.asyncCommands();
        a[6] += cost.deferredNanos();
        total = total.plus(cost);
    }

    synchronized void recordFailure(String op) {
        long[] a = ops.computeIfAbsent(op, k -> new long[7]);
        a[0]++;
        a[1]++;
    }

    synchronized void recordKick(boolean whileSuspended) {
        kicks++;
        if (whileSuspended) {
            kicksWhileSuspended++;
        }
    }

    public synchronized Snapshot snapshot() {
        Map<String, OpStats> copy = new TreeMap<>();
        ops.forEach((k, a) -> copy.put(k, new OpStats(a[0], a[1], a[2], a[3], a[4], a[5], a[6])));
        return new Snapshot(Map.copyOf(copy), total, kicks, kicksWhileSuspended);
    }
}
