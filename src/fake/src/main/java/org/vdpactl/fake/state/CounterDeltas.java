package org.vdpactl.fake.state;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counters that several processes add to: each saves what it counted since its last load or save,
 * added to what is on disk, so concurrent counting loses nothing (a plain "save my totals" would
 * overwrite the other process's counts).
 */
public final class CounterDeltas {
    private CounterDeltas() {
    }

    /** What each counter grew by from {@code before} to {@code now}; counters that did not grow are left out. */
    public static Map<String, Map<String, Long>> since(Map<String, Map<String, Long>> before, Map<String, Map<String, Long>> now) {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        now.forEach((device, counts) -> counts.forEach((name, value) -> {
            long was = before.getOrDefault(device, Map.of()).getOrDefault(name, 0L);
            if (value > was) {
                out.computeIfAbsent(device, k -> new TreeMap<>()).put(name, value - was);
            }
        }));
        return out;
    }

    /** {@code base} with {@code deltas} added. */
    public static Map<String, Map<String, Long>> add(Map<String, Map<String, Long>> base, Map<String, Map<String, Long>> deltas) {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        base.forEach((device, counts) -> out.put(device, new TreeMap<>(counts)));
        deltas.forEach((device, counts) -> counts.forEach((name, d) ->
                out.computeIfAbsent(device, k -> new TreeMap<>()).merge(name, d, Long::sum)));
        return out;
    }
}
