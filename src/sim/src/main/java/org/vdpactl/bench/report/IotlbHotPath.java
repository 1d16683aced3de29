package org.vdpactl.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Part 2's hot path taken apart: IotlbBench's steps from C's loop in the same JVM to the library's {@code apply}, all
 * writing the same messages to {@code /dev/null}, each adding one ingredient; what a step adds is the difference of
 * two medians in ns per message. The C loop runs inside the JMH process (one downcall per 2052 messages), so the
 * yardstick meets the same process, thread, harness and load as the Java rows: the like-for-like comparison.
 */
final class IotlbHotPath {
    /** The hot path's goal: within this factor of C writing the same messages (docs/benchmarks.md, Goals). */
    static final double GOAL = 1.10;
    static final String C_IN_JVM = "cLoopInJvm";
    static final String LIBRARY = "encodeWriteDevNull";

    /**
     * {benchmark, what it adds to the step before it}, in order: the yardstick first, the library last. Since the
     * device handle writes through a writer with its own errno buffer ({@code Syscalls.writer}), the library looks up
     * no per-thread buffer: its steps skip that lookup.
     */
    private static final String[][] STEPS = {
        {C_IN_JVM, "C's loop (src/bench/c/bench_common.h) called once per 2052 messages from this JVM: the yardstick"},
        {"ffmWrite", "the FFM downcall per message: thread-state transition, the stub, errno capture into a buffer in a field"},
        {"ffmEncodeWriteOwnErrno", "`IotlbCodec.encode` of each message from the plans' columns"},
        {LIBRARY, "the library's own work: `apply`'s plan walk and ASID check, `checkOpen`, the handle's writer and its"
                + " result check"},
    };

    /** The steps of records made before the handle had a writer of its own: the seam's {@code ThreadLocal} lookup was one. */
    private static final String[][] STEPS_THREAD_LOCAL = {
        {C_IN_JVM, "C's loop (src/bench/c/bench_common.h) called once per 2052 messages from this JVM: the yardstick"},
        {"ffmWrite", "the FFM downcall per message: thread-state transition, the stub, errno capture into a buffer in a field"},
        {"ffmWriteThreadLocal", "the seam's lookup of its per-thread errno buffer (`ThreadLocal`)"},
        {"ffmEncodeWrite", "`IotlbCodec.encode` of each message from the plans' columns"},
        {LIBRARY, "the library's own work: `apply`'s plan walk and ASID check, `checkOpen`, the `Syscalls` call and result check"},
    };

    private IotlbHotPath() {
    }

    /** ns per message of a throughput benchmark (messages per second), if it ran. */
    private static Optional<Double> nsPerMessage(JmhResults jmh, String method) {
        return jmh.run(method).map(r -> 1e9 / r.summary().median());
    }

    /**
     * The least any FFM caller pays for the same write(2)s: one downcall per message with errno captured, nothing
     * else in Java. The goal leaves the library only what is left between it and {@link #GOAL}.
     */
    static final String FLOOR = "ffmWrite";

    /** The floor's ns per message ÷ C's in the same JVM, when both ran. */
    static Optional<Double> floor(JmhResults jmh) {
        return nsPerMessage(jmh, FLOOR).flatMap(f -> nsPerMessage(jmh, C_IN_JVM).map(c -> f / c));
    }

    /** The library's ns per message ÷ C's in the same JVM, when both ran. */
    static Optional<Double> ratio(JmhResults jmh) {
        return nsPerMessage(jmh, LIBRARY).flatMap(j -> nsPerMessage(jmh, C_IN_JVM).map(c -> j / c));
    }

    /** The breakdown table; nothing when the yardstick or a step did not run (records before 2026-12-06 20:00). */
    static void render(JmhResults jmh, Markdown md) {
        List<List<String>> rows = new ArrayList<>();
        Double previous = null;
        Double c = null;
        String[][] steps = jmh.run("ffmEncodeWriteOwnErrno").isPresent() ? STEPS : STEPS_THREAD_LOCAL;
        for (String[] step : steps) {
            Optional<Double> ns = nsPerMessage(jmh, step[0]);
            if (ns.isEmpty()) {
                return;
            }
            if (previous == null) {
                c = ns.get();
            }
            rows.add(List.of("`" + step[0] + "`", step[1], Markdown.num(ns.get()),
                    previous == null ? "-" : signed(ns.get() - previous), Markdown.ratio(ns.get() / c)));
            previous = ns.get();
        }
        md.line("Where the hot path's time goes, step by step (measured: medians of this run, ns per message; each step adds"
                + " one ingredient to the one above it, so a difference of a few ns is within the spread of the rows above):").blank();
        md.table(List.of("Step", "What it adds", "ns per message", "added", "÷ C in this JVM"), rows);
    }

    /** A difference in ns with its sign: a step can measure faster than the one before it within the noise. */
    private static String signed(double ns) {
        return (ns >= 0 ? "+" : "") + Markdown.num(ns);
    }
}
