package org.vdpactl.orchestra;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.vdpactl.time.Clock;
import org.vdpactl.time.Resource;

/**
 * The parallel strategy with nothing in it but the model's waits: every lane waits, call by call and
 * phase by phase, as long as the model said each call of its device took (the spans of a
 * virtual-clock run), on the same {@link LanePool} threads and through the same {@link PhaseBarrier}
 * a rehearsal uses, and makes no call at all: no client, no syscall seam, no fake kernel, no latency
 * model computed. Each wait is a {@link Resource#workSince} of a per-device resource, the fake
 * device's own way of blocking a caller for a modelled cost.
 *
 * <p>On a virtual clock the replay's downtime is the model's critical path, exactly. On the real
 * clock it is what this machine needs to put that many threads to sleep and to wake them at those
 * times: the part of a real-clock rehearsal's overhead that no per-call saving in vdpactl, its client
 * or the fake kernel can remove. A rehearsal's downtime over its replay's is vdpactl's own share
 * (docs/benchmarks.md, "The machine's share").
 */
public final class ModelReplay {
    private final List<Lane> lanes;
    private final List<Phase> phases;
    /** [lane][phase] the modelled duration of each call, in the order the lane made them. */
    private final long[][][] costs;
    private final Set<Phase> preparation;

    private ModelReplay(List<Lane> lanes, List<Phase> phases, long[][][] costs, Set<Phase> preparation) {
        this.lanes = lanes;
        this.phases = phases;
        this.costs = costs;
        this.preparation = preparation;
    }

    /** The waits of {@code model}'s window (a run on a virtual clock, so each span's duration is modelled time). */
    public static ModelReplay of(Timeline model) {
        List<Span> window = model.windowSpans();
        // window phases in the order they ran: under the parallel strategy a phase starts after the previous one ended
        Map<Phase, Long> firstStart = new LinkedHashMap<>();
        for (Span s : window) {
            firstStart.merge(s.phase(), s.startNanos(), Math::min);
        }
        List<Phase> phases = firstStart.entrySet().stream().sorted(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .toList();
        // one pass over the window: the durations of each device's calls per phase, in the order they were made
        Map<String, Map<Phase, List<Span>>> byDevice = new HashMap<>();
        for (Span s : window) {
            byDevice.computeIfAbsent(s.device(), d -> new EnumMap<>(Phase.class)).computeIfAbsent(s.phase(), p -> new ArrayList<>())
                    .add(s);
        }
        List<Lane> lanes = model.lanes();
        long[][][] costs = new long[lanes.size()][phases.size()][];
        for (int l = 0; l < lanes.size(); l++) {
            for (int p = 0; p < phases.size(); p++) {
                Phase phase = phases.get(p);
                List<Span> calls = byDevice.getOrDefault(lanes.get(l).deviceFor(phase), Map.of()).getOrDefault(phase, List.of());
                costs[l][p] = calls.stream().sorted(Comparator.comparingLong(Span::startNanos)).mapToLong(Span::durationNanos)
                        .toArray();
            }
        }
        return new ModelReplay(lanes, phases, costs, model.preparation());
    }

    /** Calls replayed per run (every device). */
    public int calls() {
        int n = 0;
        for (long[][] lane : costs) {
            for (long[] phase : lane) {
                n += phase.length;
            }
        }
        return n;
    }

    /** Of those, the calls with a modelled cost: each one a sleep and a wake-up on the real clock. */
    public int waits() {
        int n = 0;
        for (long[][] lane : costs) {
            for (long[] phase : lane) {
                for (long c : phase) {
                    n += c > 0 ? 1 : 0;
                }
            }
        }
        return n;
    }

    /**
     * Runs the replay once on {@code clock} with fresh lane threads and returns its timeline (one span
     * per replayed call, named "wait"), whose {@link Timeline#downtimeNanos()} is measured as a
     * rehearsal's is.
     */
    public Timeline run(Clock clock) {
        int n = lanes.size();
        long[][][] starts = new long[n][phases.size()][];
        long[][][] ends = new long[n][phases.size()][];
        try (LanePool pool = new LanePool(clock, n)) {
            PhaseBarrier barrier = new PhaseBarrier(clock, n, () -> false);
            List<Integer> indices = IntStream.range(0, n).boxed().toList();
            // a rehearsal's lane threads exist before its window (they ran the set-up): so do these
            pool.forEach(indices, i -> {
            });
            pool.forEach(indices, i -> {
                Resource device = clock.newResource(lanes.get(i).toString());
                for (int p = 0; p < phases.size(); p++) {
                    long[] c = costs[i][p];
                    long[] s = starts[i][p] = new long[c.length];
                    long[] e = ends[i][p] = new long[c.length];
                    for (int k = 0; k < c.length; k++) {
                        long issued = clock.nanoTime();
                        s[k] = issued;
                        if (c[k] > 0) {
                            device.workSince(issued, c[k]);
                        }
                        e[k] = clock.nanoTime();
                    }
                    barrier.await(i);
                }
            });
        }
        List<Span> spans = new ArrayList<>(calls());
        for (int l = 0; l < n; l++) {
            for (int p = 0; p < phases.size(); p++) {
                Phase phase = phases.get(p);
                String device = lanes.get(l).deviceFor(phase);
                for (int k = 0; k < starts[l][p].length; k++) {
                    spans.add(new Span(device, phase, "wait", starts[l][p][k], ends[l][p][k], 0));
                }
            }
        }
        return new Timeline(Strategy.PARALLEL, lanes, spans, preparation);
    }
}
