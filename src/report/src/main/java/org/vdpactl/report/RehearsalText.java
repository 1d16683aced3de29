package org.vdpactl.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.vdpactl.orchestra.DeviceState;
import org.vdpactl.orchestra.PhaseFallbacks;
import org.vdpactl.orchestra.CriticalPath;
import org.vdpactl.orchestra.DeviceReport;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.orchestra.Percentiles;
import org.vdpactl.orchestra.RehearsalStatistics;
import org.vdpactl.orchestra.Phase;
import org.vdpactl.orchestra.PhaseSummary;
import org.vdpactl.orchestra.RehearsalFailure;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Timeline;

/**
 * The text report of {@code vdpactl rehearse}: what was rehearsed, the per-phase table (wall time,
 * slowest device, one column per device when there are few), the downtime and critical path,
 * percentiles over the iterations, and on failure the failing call and every device's final state.
 */
public final class RehearsalText {
    /** Up to this many devices get their own column. */
    public static final int MAX_DEVICE_COLUMNS = 8;

    private RehearsalText() {
    }

    public static String render(RehearsalResult r, RunInfo info) {
        StringBuilder sb = new StringBuilder();
        RehearsalPlan plan = r.plan();
        sb.append(describePlan(plan)).append('\n');
        if (info.simulated()) {
            sb.append("Backend: ").append(info.backend())
                    .append(" -- every figure below is SIMULATED (modelled driver and firmware latencies, ")
                    .append(info.clock()).append(" clock), not measured on hardware\n");
        } else {
            sb.append("Backend: ").append(info.backend()).append(" (measured, ").append(info.clock()).append(" clock)\n");
        }
        for (String note : r.notes()) {
            sb.append("Note: ").append(note).append('\n');
        }
        Timeline shown = representative(r);
        if (shown != null) {
            sb.append('\n');
            if (r.completedIterations().size() > 1 && r.failure() == null) {
                int number = shown.index() >= 0 ? shown.index() + 1 : r.iterations().indexOf(shown) + 1;
                sb.append("Iteration ").append(number).append(" of ").append(Math.max(r.iterationsRun(), r.iterations().size()))
                        .append(r.iterations().size() < r.iterationsRun() ? " (the kept one nearest the median downtime):\n"
                                : " (the median downtime):\n");
            }
            sb.append(phaseTable(shown, info).render());
            sb.append('\n');
            String label = r.failure() == null ? "Downtime" : "Downtime until the failure";
            sb.append(label).append(" (").append(windowWords(shown, "->")).append("): ").append(Durations.ms(shown.downtimeNanos())).append(" ms")
                    .append(info.simulatedSuffix()).append('\n');
            sb.append(criticalPathLine(shown, info)).append('\n');
            fallbackLines(shown).forEach(l -> sb.append(l).append('\n'));
        }
        if (r.statistics().count() > 1) {
            sb.append('\n').append(percentileTable(r, info).render());
            histogramNote(r).ifPresent(n -> sb.append(n).append('\n'));
        }
        RehearsalFailure f = r.failure();
        if (f != null) {
            sb.append('\n').append("FAILED: ").append(f.summary()).append('\n');
            sb.append("  ").append(f.message().replace("\n", "\n  ")).append('\n');
            sb.append("Every device was brought back to a known state:\n");
            sb.append(deviceTable(r.devices()).render());
        } else if (r.interrupted()) {
            sb.append('\n').append("INTERRUPTED: ").append(r.iterationsRun() >= r.plan().iterations()
                    ? "the request came during the last window, which ran to its end (" + iterations(r.iterationsRun()) + ")"
                    : "stopped on request after " + r.iterationsRun() + " of " + iterations(r.plan().iterations())
                            + " (at the safe point before a window)").append("; every device is in a known state:\n");
            sb.append(deviceTable(r.devices()).render());
        } else {
            sb.append('\n').append(devicesLine(r.devices())).append('\n');
        }
        return sb.toString();
    }

    /** "4 devices (mlx5-0, ...), strategy parallel, ...". */
    public static String describePlan(RehearsalPlan plan) {
        StringBuilder sb = new StringBuilder("Rehearsal: ");
        sb.append(plan.sources().size()).append(plan.sources().size() == 1 ? " device (" : " devices (");
        sb.append(String.join(", ", plan.sources().stream().map(DeviceTarget::name).toList())).append(')');
        if (!plan.sameDevices()) {
            sb.append(" -> (").append(String.join(", ", plan.destinations().stream().map(DeviceTarget::name).toList()))
                    .append(')');
        } else if (plan.runs(Phase.RESET)) {
            sb.append(", each its own destination (reset in between)");
        }
        sb.append(", strategy ").append(plan.strategy().label());
        sb.append(", ").append(plan.iterations()).append(plan.iterations() == 1 ? " iteration" : " iterations").append('\n');
        sb.append("Memory: ").append(describeMemory(plan.memory()));
        if (plan.runs(Phase.MAP)) {
            sb.append(", mapped inside the window");
        } else if (plan.premap()) {
            sb.append(", premapped before the window");
        }
        sb.append("\nPhases: ").append(String.join(", ", plan.orderedPhases().stream().map(Phase::label).toList()));
        sb.append("\nWindow: ").append(describeWindow(plan));
        return sb.toString();
    }

    /** Where the downtime starts and ends under this plan, on one line (the HTML report splits the plan by lines). */
    public static String describeWindow(RehearsalPlan plan) {
        String start = plan.runs(Phase.SUSPEND) ? "starts at the first SUSPEND of a source" : "starts at the first window call";
        // a destination the window restarted issues no RESUME (as QEMU 10.0): the window ends at its last start call
        String end = "ends when the last window call returns";
        StringBuilder sb = new StringBuilder(plan.window().label()).append(" -- ").append(start).append(", ").append(end);
        if (!plan.preparationPhases().isEmpty()) {
            sb.append("; the reset is the destination's preparation (open, reset, VQ creation: before the stop-and-copy")
                    .append(" in a real migration), run between each device's two roles, shown but not counted as downtime");
        } else if (plan.sameDevices() && plan.runs(Phase.RESET)) {
            sb.append("; each device is stopped and restarted in place: its reset is inside the window");
        } else if (!plan.sameDevices()) {
            sb.append("; the destinations were opened and reset before the window");
        }
        return sb.toString();
    }

    /** "256 GiB in 256 regions of 1 GiB (1 hole), 4 KiB pages". */
    public static String describeMemory(GuestMemoryLayout m) {
        long largest = m.regions().stream().mapToLong(GuestMemoryLayout.Region::size).max().orElse(0);
        StringBuilder sb = new StringBuilder(bytes(m.totalBytes())).append(" in ").append(m.regions().size())
                .append(m.regions().size() == 1 ? " region" : " regions");
        if (m.regions().size() > 1) {
            sb.append(" of up to ").append(bytes(largest));
        }
        if (m.holes() > 0) {
            sb.append(" (").append(m.holes()).append(m.holes() == 1 ? " hole)" : " holes)");
        }
        sb.append(", ").append(bytes(m.smallestPageSize())).append(" pages");
        return sb.toString();
    }

    /** Binary units, exact when possible ("256 GiB", "1536 MiB"). */
    public static String bytes(long b) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        long v = b;
        while (u < units.length - 1 && v >= 1024 && v % 1024 == 0) {
            v /= 1024;
            u++;
        }
        return v + " " + units[u];
    }

    /** The iteration with the median downtime among the completed ones; the failed one after a failure. */
    static Timeline representative(RehearsalResult r) {
        if (r.failure() != null || r.iterations().isEmpty()) {
            return r.lastIteration();
        }
        List<Timeline> sorted = new ArrayList<>(r.iterations());
        sorted.sort(Comparator.comparingLong(Timeline::downtimeNanos));
        if (sorted.size() < r.iterationsRun()) {
            // not every iteration kept its spans: the kept one nearest the median of all of them
            long median = r.statistics().downtime().p50();
            return sorted.stream().min(Comparator.comparingLong(t -> Math.abs(t.downtimeNanos() - median))).orElseThrow();
        }
        return sorted.get((sorted.size() - 1) / 2);
    }

    static TextTable phaseTable(Timeline t, RunInfo info) {
        List<String> devices = t.devices();
        boolean columns = devices.size() <= MAX_DEVICE_COLUMNS;
        List<String> header = new ArrayList<>(List.of("phase", ">wall ms", "slowest device", ">slowest ms"));
        if (columns) {
            devices.forEach(d -> header.add(">" + d));
        }
        TextTable table = new TextTable(header);
        for (PhaseSummary p : t.phases()) {
            String name = p.phase().label() + (t.inDowntime(p.phase()) ? "" : " (preparation, not downtime)");
            String fallback = PhaseFallbacks.describe(t.spans(), p.phase());
            List<String> row = new ArrayList<>(List.of(name + (p.failedCalls() > 0 ? " (FAILED)" : "")
                    + (fallback != null ? " [" + fallback + "]" : ""),
                    Durations.ms(p.wallNanos()), String.valueOf(p.slowestDevice()), Durations.ms(p.slowestNanos())));
            if (columns) {
                for (String d : devices) {
                    Long n = p.deviceNanos().get(d);
                    row.add(n == null ? "-" : Durations.ms(n));
                }
            }
            table.row(row);
        }
        List<String> total = new ArrayList<>(List.of("window" + info.simulatedSuffix(), Durations.ms(t.downtimeNanos()), "", ""));
        if (columns) {
            Map<String, Long> perDevice = t.deviceNanos();
            devices.forEach(d -> total.add(Durations.ms(perDevice.getOrDefault(d, 0L))));
        }
        table.row(total);
        return table;
    }

    /** One line per phase that ran a fallback (restore between iterations included), for text and HTML. */
    static List<String> fallbackLines(Timeline t) {
        List<String> out = new ArrayList<>();
        PhaseFallbacks.of(t.spans()).forEach((phase, marks) -> out.add("Fallback in " + phase.label() + ": "
                + String.join("; ", marks.stream().map(m -> m.replaceFirst("^fallback: ", "")).toList())
                + " (a device lacks SUSPEND or RESUME; see docs/rehearse.md)"));
        return out;
    }

    static String criticalPathLine(Timeline t, RunInfo info) {
        CriticalPath cp = t.criticalPath();
        String how = switch (t.strategy()) {
            case SERIAL -> "serial: every phase of every device, one after another";
            case PARALLEL -> "parallel: the slowest device of each phase";
            case PIPELINED -> "pipelined: the slowest device's own phases";
            case SVQ -> "svq: every phase of every device, one after another, destinations shadowed";
        };
        return "Critical path: " + Durations.ms(cp.nanos()) + " ms" + info.simulatedSuffix() + " (" + how + ")";
    }

    /**
     * What the downtime of {@code t} spans, as {@link Timeline#windowEnd()} decides it: to the last resume, or, in a
     * window without one (--stop-and-copy: the source side only), to the end of its last call.
     */
    static String windowWords(Timeline t, String to) {
        // the window ends at the call that lets the devices run again: a RESUME, or (QEMU 10's way, which restarts a
        // suspended device from reset) the destination side's last call; a stop-and-copy run has the source side only
        boolean destination = t.spans().stream()
                .anyMatch(s -> s.phase().inWindow() && s.phase().side() == Phase.Side.DESTINATION);
        return "first suspend " + to + (destination ? " last window call" : " end of the last call (no resume: the source side only)")
                + (t.preparation().isEmpty() ? "" : ", less the destination's preparation");
    }

    /** "1 iteration", "2 iterations". */
    static String iterations(long n) {
        return n + (n == 1 ? " iteration" : " iterations");
    }

    static TextTable percentileTable(RehearsalResult r, RunInfo info) {
        TextTable table = new TextTable(List.of("over " + iterations(r.statistics().count()) + info.simulatedSuffix(),
                ">p50 ms", ">p90 ms", ">p99 ms", ">max ms"));
        for (Map.Entry<Phase, Percentiles> e : r.statistics().phases().entrySet()) {
            table.row(percentileRow(e.getKey().label(), e.getValue()));
        }
        table.row(percentileRow("downtime", r.statistics().downtime()));
        return table;
    }

    /**
     * Said under the percentiles when they were read off the histogram: past
     * {@link RehearsalStatistics#EXACT_SAMPLE_LIMIT} iterations the samples are not kept.
     */
    static Optional<String> histogramNote(RehearsalResult r) {
        if (r.statistics().exact()) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "Percentiles, min, max and mean read off a histogram (3 significant digits):"
                + " more than %,d iterations, whose exact values are not kept.", RehearsalStatistics.EXACT_SAMPLE_LIMIT));
    }

    private static List<String> percentileRow(String name, Percentiles p) {
        return List.of(name, Durations.ms(p.p50()), Durations.ms(p.p90()), Durations.ms(p.p99()), Durations.ms(p.max()));
    }

    static TextTable deviceTable(List<DeviceReport> devices) {
        TextTable table = new TextTable(List.of("device", "role", "state", "memory", "status", "what happened"));
        for (DeviceReport d : devices) {
            table.row(d.name(), d.role(), d.state().name().toLowerCase(Locale.ROOT), d.mapped() ? "mapped" : "unmapped",
                    d.status() == null ? "?" : d.status(), d.detail());
        }
        return table;
    }

    private static String devicesLine(List<DeviceReport> devices) {
        long running = devices.stream().filter(d -> d.state() == DeviceState.RUNNING).count();
        long reset = devices.stream().filter(d -> d.state() == DeviceState.RESET).count();
        long closed = devices.stream().filter(d -> d.state() == DeviceState.CLOSED).count();
        long unknown = devices.size() - running - reset - closed;
        StringBuilder sb = new StringBuilder("Devices afterwards: ").append(running).append(" running");
        if (reset > 0) {
            sb.append(", ").append(reset).append(" reset (destinations)");
        }
        if (closed > 0) {
            sb.append(", ").append(closed).append(" closed (never opened)");
        }
        if (unknown > 0) {
            sb.append(", ").append(unknown).append(" UNKNOWN");
        }
        return sb.append(" (closing the fds resets them in the kernel)").toString();
    }
}
