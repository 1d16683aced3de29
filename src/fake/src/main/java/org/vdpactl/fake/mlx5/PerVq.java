package org.vdpactl.fake.mlx5;

import java.util.Arrays;

/**
 * A value per index (a VQ, or a VQ and a variant), made on first use and kept: what the model builds
 * once per parameter set instead of per op. Shared by every device of one preset, so reads take no
 * lock (a volatile array, replaced whole on a write: copy on write); writes are rare (the first use
 * of an index) and take this object's lock.
 */
final class PerVq<T> {
    private volatile Object[] values = new Object[0];

    /** The value kept for {@code index}, or null. */
    @SuppressWarnings("unchecked")
    T get(int index) {
        Object[] v = values;
        return index < v.length ? (T) v[index] : null;
    }

    /** Keeps {@code value} for {@code index} (unless another thread kept one first) and returns the kept one. */
    @SuppressWarnings("unchecked")
    synchronized T put(int index, T value) {
        Object[] v = values;
        if (index < v.length && v[index] != null) {
            return (T) v[index];
        }
        Object[] copy = Arrays.copyOf(v, Math.max(v.length, index + 1));
        copy[index] = value;
        values = copy;
        return value;
    }
}
