package org.vdpactl.abi;

import java.util.Map;

/**
 * An immutable map from a 32-bit ioctl request number to a value, looked up without boxing: every
 * ioctl of the fake names its request (for dispatch and for error texts), so a {@code Map<Long, ?>}
 * would allocate a {@code Long} per call. Open addressing with linear probing over a power-of-two
 * table at most a quarter full.
 *
 * @param <V> the value type
 */
public final class RequestTable<V> {
    private final long[] keys;
    private final Object[] values;
    private final int mask;

    private RequestTable(Map<Long, V> entries) {
        int capacity = Integer.highestOneBit(Math.max(4, entries.size() * 4) - 1) << 1;
        keys = new long[capacity];
        values = new Object[capacity];
        mask = capacity - 1;
        entries.forEach((k, v) -> {
            if (v == null) {
                throw new IllegalArgumentException("no value for request " + k);
            }
            int i = slot(k);
            while (values[i] != null) {
                i = (i + 1) & mask;
            }
            keys[i] = k;
            values[i] = v;
        });
    }

    /** A table of {@code entries} (no null values). */
    public static <V> RequestTable<V> of(Map<Long, V> entries) {
        return new RequestTable<>(entries);
    }

    /** The value of {@code request}, or null. */
    @SuppressWarnings("unchecked")
    public V get(long request) {
        for (int i = slot(request); ; i = (i + 1) & mask) {
            Object v = values[i];
            if (v == null || keys[i] == request) {
                return (V) v;
            }
        }
    }

    private int slot(long request) {
        long h = request * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 40) & mask;
    }
}
