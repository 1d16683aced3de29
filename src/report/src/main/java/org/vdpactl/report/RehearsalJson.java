package org.vdpactl.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.vdpactl.orchestra.PhaseFallbacks;
import org.vdpactl.orchestra.DeviceReport;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.orchestra.Percentiles;
import org.vdpactl.orchestra.Phase;
import org.vdpactl.orchestra.PhaseSummary;
import org.vdpactl.orchestra.RehearsalFailure;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Span;
import org.vdpactl.orchestra.Timeline;

/**
 * The JSON document of {@code vdpactl rehearse --json} ({@link JsonDocument#REHEARSAL}, which adds the
 * schema keys): the plan, the outcome, every span of every iteration, per-phase summaries, percentiles and
 * the devices' final states. Span times are nanoseconds relative to the iteration's window start (negative
 * for calls before it); durations in the summaries are milliseconds. Phases are named by
 * {@link Phase#id()}. Serialise with Jackson and snake_case names (the CLI's mapper).
 *
 * @param simulated   true when the figures come from the fake kernel's models
 * @param backend     where the figures come from, as fields: kind, the kernel of the figures (kernel_profile on the
 *                    fake, kernel_release on the kernel) and the fake's latency presets of the devices
 * @param clock       "real" or "virtual"
 * @param command     the command line
 * @param plan        what was rehearsed
 * @param outcome     "completed" or "partial"
 * @param failure     the failing call (absent when completed)
 * @param statistics  percentiles over the completed iterations
 * @param iterations  every iteration with all its spans
 * @param setup       the calls before the first window, relative to the first of them
 * @param devices     final device states
 * @param notes       remarks (memory reduced, ...)
 * @param fallbacks   phase → the fallbacks its calls used instead of SUSPEND / GET_VRING_BASE / RESUME
 *                    (absent when none did; docs/rehearse.md)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RehearsalJson(boolean simulated, BackendFields backend, String clock, String command, Plan plan,
        String outcome, Failure failure, Statistics statistics, List<Iteration> iterations, List<JsonSpan> setup,
        List<DeviceReport> devices, List<String> notes, Map<String, List<String>> fallbacks) {

    /** The plan as JSON. */
    public record Plan(List<String> sources, List<String> destinations, List<String> paths, String strategy, boolean premap,
            List<String> phases, int iterations, int queuePairs, long memoryBytes, List<GuestMemoryLayout.Region> memory,
            String window, List<String> preparation) {
    }

    /** The failing call. */
    public record Failure(String device, String phase, String call, int errno, String errnoName, String message) {
    }

    /** One span. */
    public record JsonSpan(String device, String phase, String call, long startNs, long endNs, long durationNs, int errno,
            String errnoName) {
    }

    /** One window phase of one iteration. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PhaseJson(String phase, boolean inWindow, double wallMs, String slowestDevice, double slowestMs,
            Map<String, Double> deviceMs, int failedCalls, String fallback) {
    }

    /** One iteration. */
    public record Iteration(int index, boolean failed, double downtimeMs, double criticalPathMs, List<PhaseJson> phases,
            Map<String, Double> deviceMs, List<JsonSpan> spans) {
    }

    /**
     * Percentiles in milliseconds. With no completed iteration ({@code count} 0) every figure is null: nothing was
     * measured, and a zero would pass a threshold. {@code exact} is false when the figures were read off the
     * histogram because there were more samples than are kept ({@link org.vdpactl.orchestra.RehearsalStatistics}).
     */
    public record Dist(long count, Double minMs, Double p50Ms, Double p90Ms, Double p99Ms, Double maxMs, Double meanMs,
            boolean exact) {
        static Dist of(Percentiles p) {
            if (p.empty()) {
                return new Dist(0, null, null, null, null, null, null, true);
            }
            return new Dist(p.count(), Durations.millis(p.min()), Durations.millis(p.p50()), Durations.millis(p.p90()),
                    Durations.millis(p.p99()), Durations.millis(p.max()), p.mean() / 1e6, p.exact());
        }
    }

    /** Percentiles over the completed iterations. */
    public record Statistics(Dist downtime, Map<String, Dist> phases) {
    }

    /** Builds the document. */
    public static RehearsalJson of(RehearsalResult r, RunInfo info) {
        RehearsalPlan p = r.plan();
        Plan plan = new Plan(names(p.sources()), names(p.destinations()),
                p.sources().stream().map(DeviceTarget::path).toList(), p.strategy().label(), p.premap(),
                p.orderedPhases().stream().map(Phase::id).toList(), p.iterations(), p.queuePairs(),
                p.memory().totalBytes(), p.memory().regions(), p.window().label(),
                p.orderedPhases().stream().filter(ph -> p.preparationPhases().contains(ph)).map(Phase::id).toList());
        Failure failure = null;
        RehearsalFailure f = r.failure();
        if (f != null) {
            failure = new Failure(f.device(), f.phase().id(), f.call(), f.errno(), f.errnoName(), f.message());
        }
        Map<String, Dist> phases = new LinkedHashMap<>();
        r.statistics().phases().forEach((ph, pc) -> phases.put(ph.id(), Dist.of(pc)));
        Statistics stats = new Statistics(Dist.of(r.statistics().downtime()), phases);
        List<Iteration> iterations = new ArrayList<>();
        for (int i = 0; i < r.iterations().size(); i++) {
            Timeline t = r.iterations().get(i);
            boolean failed = f != null && i == r.iterations().size() - 1;
            // the kept iterations only (every one up to 16); "index" says which iteration each is
            iterations.add(iteration(t.index() >= 0 ? t.index() : i, failed, t));
        }
        long setupOrigin = r.setupSpans().stream().mapToLong(Span::startNanos).min().orElse(0);
        return new RehearsalJson(info.simulated(), info.backendFields(), info.clock(), info.command(), plan,
                r.outcome().name().toLowerCase(Locale.ROOT), failure, stats, iterations, spans(r.setupSpans(), setupOrigin),
                r.devices(), r.notes(), fallbacks(r));
    }

    private static Map<String, List<String>> fallbacks(RehearsalResult r) {
        List<Span> all = new ArrayList<>(r.setupSpans());
        r.iterations().forEach(t -> all.addAll(t.spans()));
        Map<String, List<String>> out = new LinkedHashMap<>();
        PhaseFallbacks.of(all).forEach((phase, marks) -> out.put(phase.id(), List.copyOf(marks)));
        return out.isEmpty() ? null : out;
    }

    private static Iteration iteration(int index, boolean failed, Timeline t) {
        List<PhaseJson> phases = new ArrayList<>();
        for (PhaseSummary s : t.phases()) {
            phases.add(new PhaseJson(s.phase().id(), t.inDowntime(s.phase()), Durations.millis(s.wallNanos()), s.slowestDevice(),
                    Durations.millis(s.slowestNanos()), millis(s.deviceNanos()), s.failedCalls(),
                    PhaseFallbacks.describe(t.spans(), s.phase())));
        }
        return new Iteration(index, failed, Durations.millis(t.downtimeNanos()), Durations.millis(t.criticalPath().nanos()),
                phases, millis(t.deviceNanos()), spans(t.spans(), t.windowStart()));
    }

    private static Map<String, Double> millis(Map<String, Long> nanos) {
        Map<String, Double> out = new LinkedHashMap<>();
        nanos.forEach((k, v) -> out.put(k, Durations.millis(v)));
        return out;
    }

    private static List<JsonSpan> spans(List<Span> spans, long origin) {
        List<JsonSpan> out = new ArrayList<>(spans.size());
        for (Span s : spans) {
            out.add(new JsonSpan(s.device(), s.phase().id(), s.call(), s.startNanos() - origin, s.endNanos() - origin,
                    s.durationNanos(), s.errno(), s.errnoName()));
        }
        return out;
    }

    private static List<String> names(List<DeviceTarget> targets) {
        return targets.stream().map(DeviceTarget::name).toList();
    }
}
