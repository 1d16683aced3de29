package org.vdpactl.report.fleet;

import java.util.ArrayList;
import java.util.List;
import org.vdpactl.orchestra.Phase;
import org.vdpactl.report.Durations;
import org.vdpactl.report.TextTable;

/** The plain-text fleet report: hosts slowest first, then each phase's spread across the hosts. */
public final class FleetText {
    private FleetText() {
    }

    public static String render(FleetReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append("Fleet rehearsal: ").append(r.hosts().size()).append(r.hosts().size() == 1 ? " host, " : " hosts, ")
                .append(label(r.figures())).append('\n');
        sb.append("Per host: the median over its iterations, in ms; slowest host first.\n\n");
        sb.append(hostTable(r).render());
        sb.append("\nSetup per host").append(r.differences().isEmpty() ? " (the same on every host):\n\n"
                : " (* = differs from most hosts):\n\n");
        sb.append(setupTable(r).render());
        if (!r.differences().isEmpty()) {
            sb.append('\n').append(NOT_LIKE_FOR_LIKE).append('\n');
            for (SetupDifference d : r.differences()) {
                sb.append("  ").append(d.describe()).append('\n');
            }
        }
        if (r.downtime() != null) {
            sb.append("\nSpread across hosts (ms; nearest-rank percentiles of the hosts' medians):\n\n");
            sb.append(spreadTable(r).render());
        }
        if (!r.partial().isEmpty()) {
            sb.append("\nPARTIAL (rolled back, see each host's report):\n");
            for (HostRehearsal h : r.hosts()) {
                if (h.partial()) {
                    sb.append("  ").append(h.host()).append(": ").append(h.failure() == null ? "failed" : h.failure()).append('\n');
                }
            }
        }
        return sb.toString();
    }

    /** "SIMULATED ..." / "measured" / "MIXED ..." as every vdpactl report labels its figures. */
    static String label(String figures) {
        return switch (figures) {
            case "simulated" -> "SIMULATED (every host ran on the fake kernel's models)";
            case "measured" -> "measured on the hosts' kernels";
            default -> "MIXED: some hosts simulated (fake kernel), some measured; compare with care";
        };
    }

    /** The heading of the list of setup differences, in every form of the report. */
    static final String NOT_LIKE_FOR_LIKE = "NOT LIKE FOR LIKE: the hosts differ in";
    /** The display name of a phase id of the JSON documents ("save_state" is shown "save state"); other names as given. */
    static String phaseLabel(String id) {
        return Phase.ofId(id).map(Phase::label).orElse(id);
    }

    static TextTable hostTable(FleetReport r) {
        List<String> header = new ArrayList<>(List.of("host", "outcome", ">devices", ">downtime", "slowest downtime phase",
                "setup"));
        for (Spread s : r.phases()) {
            header.add(">" + shownName(s));
        }
        TextTable t = new TextTable(header);
        for (HostRehearsal h : r.hosts()) {
            List<String> row = new ArrayList<>(List.of(h.host(), h.outcome() + (h.simulated() ? "" : " (measured)"),
                    String.valueOf(h.devices()), h.downtimeMs() == null ? "-" : Durations.ms(h.downtimeMs()),
                    h.slowestPhase() == null ? "-" : phaseLabel(h.slowestPhase()),
                    h.differs().isEmpty() ? "as most" : "differs: " + String.join(", ", h.differs())));
            for (Spread s : r.phases()) {
                Double v = h.phasesMs().get(s.name());
                // the column of the phase as this host had it: preparation or downtime
                row.add(v == null || h.preparation().contains(s.name()) != s.preparation() ? "-" : Durations.ms(v));
            }
            t.row(row);
        }
        return t;
    }

    /** One row per host: its setup, a value it does not share with most hosts marked with "*". */
    static TextTable setupTable(FleetReport r) {
        List<String> header = new ArrayList<>(List.of("host"));
        header.addAll(HostSetup.NAMES);
        TextTable t = new TextTable(header);
        for (HostRehearsal h : r.hosts()) {
            List<String> row = new ArrayList<>(List.of(h.host()));
            h.setup().attributes().forEach((k, v) -> row.add(h.differs().contains(k) ? v + " *" : v));
            t.row(row);
        }
        return t;
    }

    /** A phase's name, marked when it was the hosts' preparation (the reset of a migration window): not downtime. */
    static String shownName(Spread s) {
        return s.preparation() ? phaseLabel(s.name()) + " (not downtime)" : phaseLabel(s.name());
    }

    /** "all tie" where every host has the same figure: no host is the slowest. */
    static String slowestHost(Spread s) {
        return s.slowestHost() == null ? "- (all tie)" : s.slowestHost();
    }

    static TextTable spreadTable(FleetReport r) {
        TextTable t = new TextTable(List.of("figure", ">hosts", ">min", ">p50", ">p90", ">max", ">mean", "slowest host"));
        List<Spread> all = new ArrayList<>();
        all.add(r.downtime());
        all.addAll(r.phases());
        for (Spread s : all) {
            t.row(shownName(s), String.valueOf(s.hosts()), Durations.ms(s.minMs()), Durations.ms(s.p50Ms()),
                    Durations.ms(s.p90Ms()), Durations.ms(s.maxMs()), Durations.ms(s.meanMs()), slowestHost(s));
        }
        return t;
    }
}
