package org.vdpactl.orchestra;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything a rehearsal measured and where it left the devices.
 *
 * @param plan        what was rehearsed
 * @param outcome     completed, or stopped by a failure (every device then rolled back)
 * @param failure     the call that stopped it, or null
 * @param setupSpans  the calls before the first window (open, owner, bring-up, premap)
 * @param iterations  the timelines kept, oldest first: every iteration run while there are at most
 *                    16, else the last one, the slowest one and those nearest the median
 *                    ({@link Timeline#index()} says which iteration each is); the failed one is
 *                    always last, with its rollback calls
 * @param statistics  histograms over the completed iterations
 * @param devices     each device's final state
 * @param finalSpans  the status read-backs after the last iteration
 * @param notes       things the user should know (memory reduced to what the host can give, ...)
 * @param iterationsRun how many iterations ran (kept or not; the failed one included)
 */
public record RehearsalResult(RehearsalPlan plan, Outcome outcome, RehearsalFailure failure, List<Span> setupSpans,
        List<Timeline> iterations, RehearsalStatistics statistics, List<DeviceReport> devices, List<Span> finalSpans,
        List<String> notes, int iterationsRun) {

    /** How a rehearsal ended. */
    public enum Outcome {
        /** Every iteration completed and every device is back where it started. */
        COMPLETED,
        /** A call failed; the window stopped and every device was brought back to a known state. */
        PARTIAL,
        /**
         * Stopped on request (the CLI: SIGINT or SIGTERM) at a safe point, between two windows: the
         * iterations that ran count, and every device was restored as after a completed rehearsal.
         */
        INTERRUPTED
    }

    public boolean completed() {
        return outcome == Outcome.COMPLETED;
    }

    public boolean interrupted() {
        return outcome == Outcome.INTERRUPTED;
    }

    /** The last timeline (the failed one after a failure). */
    public Timeline lastIteration() {
        return iterations.isEmpty() ? null : iterations.getLast();
    }

    /** A copy with {@code more} notes appended. */
    public RehearsalResult withNotes(List<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<String> all = new ArrayList<>(notes);
        all.addAll(more);
        return new RehearsalResult(plan, outcome, failure, setupSpans, iterations, statistics, devices, finalSpans, List.copyOf(all),
                iterationsRun);
    }

    /** The completed iterations only. */
    public List<Timeline> completedIterations() {
        return failure == null ? iterations : iterations.subList(0, Math.max(0, iterations.size() - 1));
    }
}
