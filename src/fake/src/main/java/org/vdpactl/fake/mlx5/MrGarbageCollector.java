package org.vdpactl.fake.mlx5;

import java.util.ArrayList;
import java.util.List;

/**
 * v6.12 deferred MR deletion (docs/spec/mlx5-model.md §2.4): a released MR joins a list and a
 * delayed work item fires {@code mrGcDelayMs} after the first one joined (later ones do not push
 * it back). When it fires it tries the MR lock: busy (an MR build is running) → re-arm for another
 * delay; free → destroy every listed MR while holding the lock, so a {@code set_map} arriving then
 * waits. Device free runs the list synchronously.
 *
 * <p>Time only exists when the device has a clock ({@link Mlx5Device#useClock}); without one the
 * list is only drained by {@link #drain} (device free or an explicit GC run).
 */
final class MrGarbageCollector {
    private final double delayMs;
    private final List<OpMeter> pending = new ArrayList<>();
    private double fireAtMs = Double.NaN;
    private double busyUntilMs = Double.NEGATIVE_INFINITY;
    private double lockFromMs = Double.NaN;
    private double lockUntilMs = Double.NaN;
    private int runs;

    MrGarbageCollector(double delayMs) {
        this.delayMs = delayMs;
    }

    /** Queues a release whose work was metered into {@code release}; {@code nowMs} is NaN without a clock. */
    void enqueue(OpMeter release, double nowMs) {
        pending.add(release);
        if (Double.isNaN(fireAtMs) && !Double.isNaN(nowMs)) {
            fireAtMs = nowMs + delayMs;
        }
    }

    /** Lets the timer fire up to {@code nowMs}. */
    void catchUp(double nowMs) {
        while (!Double.isNaN(nowMs) && !Double.isNaN(fireAtMs) && fireAtMs <= nowMs) {
            if (fireAtMs >= lockFromMs && fireAtMs < lockUntilMs) {
                fireAtMs += delayMs;
                continue;
            }
            double work = 0;
            for (OpMeter m : pending) {
                work += m.elapsedMs();
            }
            busyUntilMs = fireAtMs + work;
            pending.clear();
            fireAtMs = Double.NaN;
            runs++;
        }
    }

    /** How long an MR build starting at {@code nowMs} waits for a running GC. */
    double lockWaitMs(double nowMs) {
        return Double.isNaN(nowMs) ? 0 : Math.max(0, busyUntilMs - nowMs);
    }

    /** Records that an MR build holds the MR lock over [from, until). */
    void lockHeld(double fromMs, double untilMs) {
        lockFromMs = fromMs;
        lockUntilMs = untilMs;
    }

    /** Runs every pending release now and returns their work. */
    List<OpMeter> drain() {
        List<OpMeter> l = List.copyOf(pending);
        pending.clear();
        fireAtMs = Double.NaN;
        if (!l.isEmpty()) {
            runs++;
        }
        return l;
    }

    int pendingCount() {
        return pending.size();
    }

    /** When the armed timer fires, or NaN. */
    double fireAtMs() {
        return fireAtMs;
    }

    double busyUntilMs() {
        return busyUntilMs;
    }

    int runs() {
        return runs;
    }
}
