package org.vdpactl.orchestra;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The spans of one iteration and what they add up to: the downtime (first suspend to the last window
 * call, less the destination's preparation), per-phase wall times with the slowest device, per-device
 * times and the critical path. Immutable.
 */
public final class Timeline {
    private final Strategy strategy;
    private final List<Lane> lanes;
    private final List<String> devices;
    private final List<Span> spans;
    private final Set<Phase> preparation;
    private final int index;
    private List<PhaseSummary> phases;

    /**
     * @param strategy how the iteration was driven (decides the critical path)
     * @param lanes    the migrated devices in plan order
     * @param spans    every call of the iteration, window and outside
     */
    public Timeline(Strategy strategy, List<Lane> lanes, List<Span> spans) {
        this(-1, strategy, lanes, spans, Set.of());
    }

    /**
     * @param preparation window phases that are the destination's preparation
     *                    ({@link RehearsalPlan#preparationPhases()}): shown, but not downtime
     */
    public Timeline(Strategy strategy, List<Lane> lanes, List<Span> spans, Set<Phase> preparation) {
        this(-1, strategy, lanes, spans, preparation);
    }

    /** As above, for iteration {@code index} (0-based) of a rehearsal. */
    Timeline(int index, Strategy strategy, List<Lane> lanes, List<Span> spans, Set<Phase> preparation) {
        this.index = index;
        this.preparation = Set.copyOf(preparation);
        this.strategy = strategy;
        this.lanes = List.copyOf(lanes);
        this.spans = spans.stream().sorted(Comparator.comparingLong(Span::startNanos)).toList();
        List<String> d = new ArrayList<>();
        for (Lane l : lanes) {
            if (!d.contains(l.source())) {
                d.add(l.source());
            }
            if (!d.contains(l.destination())) {
                d.add(l.destination());
            }
        }
        this.devices = List.copyOf(d);
    }

    public Strategy strategy() {
        return strategy;
    }

    /** Which iteration of its rehearsal this is (0-based), or -1 for a timeline built outside one. */
    public int index() {
        return index;
    }

    public List<Lane> lanes() {
        return lanes;
    }

    /** Every device in lane order, each source followed by its separate destination: the report's rows. */
    public List<String> devices() {
        return devices;
    }

    /** All spans, by start time. */
    public List<Span> spans() {
        return spans;
    }

    /** The spans of the downtime window. */
    public List<Span> windowSpans() {
        return spans.stream().filter(s -> s.phase().inWindow()).toList();
    }

    /** Start of the downtime: the first SUSPEND, or the first window call when the plan has no suspend. */
    public long windowStart() {
        return spans.stream().filter(s -> s.phase() == Phase.SUSPEND).mapToLong(Span::startNanos).min()
                .orElseGet(() -> windowSpans().stream().mapToLong(Span::startNanos).min().orElse(0L));
    }

    /**
     * End of the downtime: the last window call's return (a destination's last enable, CVQ command or
     * DRIVER_OK, or a RESUME where a device was still suspended). Not "the last RESUME": a restarted
     * destination issues none (QEMU 10.0 neither), and under the serial strategy one device's RESUME
     * can come before another device's start.
     */
    public long windowEnd() {
        return windowSpans().stream().mapToLong(Span::endNanos).max().orElse(0L);
    }

    /** The phases shown as the destination's preparation, outside the downtime. */
    public Set<Phase> preparation() {
        return preparation;
    }

    /** True when {@code p}'s time counts as downtime. */
    public boolean inDowntime(Phase p) {
        return p.inWindow() && !preparation.contains(p);
    }

    /**
     * Downtime = first suspend to the last window call, less the time in which a destination was only being
     * prepared (and no device was in a downtime phase).
     */
    public long downtimeNanos() {
        long start = windowStart();
        long end = windowEnd();
        return Math.max(0, end - start - preparationInside(start, end));
    }

    /** Time within [start, end) covered by preparation spans and by no downtime span. */
    private long preparationInside(long start, long end) {
        if (preparation.isEmpty()) {
            return 0;
        }
        List<long[]> prep = clipped(spans.stream().filter(s -> preparation.contains(s.phase())).toList(), start, end);
        List<long[]> down = clipped(spans.stream().filter(s -> inDowntime(s.phase())).toList(), start, end);
        List<long[]> both = new ArrayList<>(prep);
        both.addAll(down);
        return union(both) - union(down);
    }

    private static List<long[]> clipped(List<Span> list, long start, long end) {
        List<long[]> out = new ArrayList<>();
        for (Span s : list) {
            long a = Math.max(start, s.startNanos());
            long b = Math.min(end, s.endNanos());
            if (b > a) {
                out.add(new long[] {a, b});
            }
        }
        return out;
    }

    /** The window phases that occurred, in phase order. */
    public synchronized List<PhaseSummary> phases() {
        if (phases == null) {
            phases = summarise();
        }
        return phases;
    }

    private List<PhaseSummary> summarise() {
        Map<Phase, List<Span>> byPhase = new EnumMap<>(Phase.class);
        for (Span s : spans) {
            if (s.phase().inWindow()) {
                byPhase.computeIfAbsent(s.phase(), p -> new ArrayList<>()).add(s);
            }
        }
        List<PhaseSummary> out = new ArrayList<>();
        byPhase.forEach((phase, list) -> out.add(summarise(phase, list)));
        return List.copyOf(out);
    }

    /** The summary of one phase, or null when it did not occur. */
    public PhaseSummary phase(Phase phase) {
        return phases().stream().filter(p -> p.phase() == phase).findFirst().orElse(null);
    }

    private PhaseSummary summarise(Phase phase, List<Span> list) {
        Map<String, long[]> byDevice = new HashMap<>();
        for (Span s : list) {
            long[] fl = byDevice.computeIfAbsent(s.device(), d -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
            fl[0] = Math.min(fl[0], s.startNanos());
            fl[1] = Math.max(fl[1], s.endNanos());
        }
        Map<String, Long> perDevice = new LinkedHashMap<>();
        List<long[]> intervals = new ArrayList<>();
        for (String d : devices) {
            long[] fl = byDevice.get(d);
            if (fl != null) {
                perDevice.put(d, fl[1] - fl[0]);
                intervals.add(fl);
            }
        }
        String slowest = perDevice.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
        long start = list.stream().mapToLong(Span::startNanos).min().orElse(0);
        long end = list.stream().mapToLong(Span::endNanos).max().orElse(0);
        int failed = (int) list.stream().filter(Span::failed).count();
        return new PhaseSummary(phase, start, end, union(intervals), perDevice, slowest, failed);
    }

    /** Total length covered by the intervals. */
    private static long union(List<long[]> intervals) {
        if (intervals.isEmpty()) {
            return 0;
        }
        intervals.sort(Comparator.comparingLong(i -> i[0]));
        long total = 0;
        long curStart = Long.MIN_VALUE;
        long curEnd = Long.MIN_VALUE;
        for (long[] i : intervals) {
            if (i[0] > curEnd) {
                total += curEnd - curStart;
                curStart = i[0];
                curEnd = i[1];
            } else {
                curEnd = Math.max(curEnd, i[1]);
            }
        }
        return total + (curEnd - curStart);
    }

    /** Per device, the sum of its times in the window phases (its own share of the work). */
    public Map<String, Long> deviceNanos() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String d : devices) {
            out.put(d, 0L);
        }
        for (PhaseSummary p : phases()) {
            if (inDowntime(p.phase())) {
                p.deviceNanos().forEach((d, n) -> out.merge(d, n, Long::sum));
            }
        }
        return out;
    }

    /** The critical path under this iteration's strategy (downtime phases only). */
    public CriticalPath criticalPath() {
        List<PhaseSummary> phases = phases().stream().filter(p -> inDowntime(p.phase())).toList();
        List<CriticalPath.Segment> chain = new ArrayList<>();
        switch (strategy) {
            case PARALLEL -> {
                for (PhaseSummary p : phases) {
                    if (p.slowestDevice() != null) {
                        chain.add(new CriticalPath.Segment(p.slowestDevice(), p.phase(), p.slowestNanos()));
                    }
                }
            }
            case SERIAL, SVQ -> {
                for (Lane lane : lanes) {
                    chain.addAll(laneChain(lane, phases));
                }
            }
            case PIPELINED -> {
                List<CriticalPath.Segment> longest = List.of();
                long longestNanos = -1;
                for (Lane lane : lanes) {
                    List<CriticalPath.Segment> c = laneChain(lane, phases);
                    long n = c.stream().mapToLong(CriticalPath.Segment::nanos).sum();
                    if (n > longestNanos) {
                        longest = c;
                        longestNanos = n;
                    }
                }
                chain.addAll(longest);
            }
        }
        return new CriticalPath(chain.stream().mapToLong(CriticalPath.Segment::nanos).sum(), List.copyOf(chain));
    }

    private static List<CriticalPath.Segment> laneChain(Lane lane, List<PhaseSummary> phases) {
        List<CriticalPath.Segment> c = new ArrayList<>();
        for (PhaseSummary p : phases) {
            String d = lane.deviceFor(p.phase());
            Long n = p.deviceNanos().get(d);
            if (n != null) {
                c.add(new CriticalPath.Segment(d, p.phase(), n));
            }
        }
        return c;
    }

    /** The failed calls, in time order. */
    public List<Span> failures() {
        return spans.stream().filter(Span::failed).toList();
    }
}
