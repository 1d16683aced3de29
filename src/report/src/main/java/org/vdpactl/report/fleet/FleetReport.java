package org.vdpactl.report.fleet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The merged report of {@code vdpactl report merge} ({@link org.vdpactl.report.JsonDocument#FLEET}): one row per host,
 * slowest host first, and the per-phase distribution across the hosts. Hosts whose rehearsal ended
 * PARTIAL without a completed iteration have no downtime; they are listed after the others.
 *
 * @param figures   "simulated", "measured" or "mixed" (from each host's own label)
 * @param hosts     one row per host, slowest first
 * @param downtime  the spread of the hosts' downtimes (null when no host completed)
 * @param phases    the spread of each phase across the hosts, in rehearsal order
 * @param partial   the hosts whose rehearsal ended PARTIAL
 * @param differences the setup attributes (strategy, window, kernel, backend, preset, clock) the hosts do not
 *                  agree on, with the hosts that differ: their figures are not like for like
 */
public record FleetReport(String figures, List<HostRehearsal> hosts, Spread downtime, List<Spread> phases,
        List<String> partial, List<SetupDifference> differences) {

    /** Comparator: longest downtime first, hosts without one last, then by name. */
    static final Comparator<HostRehearsal> SLOWEST_FIRST = Comparator
            .comparing((HostRehearsal h) -> h.downtimeMs() == null)
            .thenComparing(h -> h.downtimeMs() == null ? 0.0 : -h.downtimeMs())
            .thenComparing(HostRehearsal::host);

    /** Merges the hosts' rehearsals; two documents of the same host are refused. */
    public static FleetReport merge(List<HostRehearsal> inputs) {
        if (inputs.isEmpty()) {
            throw new BadFleetInputException("no rehearsal documents to merge");
        }
        Map<String, HostRehearsal> byHost = new LinkedHashMap<>();
        for (HostRehearsal h : inputs) {
            HostRehearsal before = byHost.putIfAbsent(h.host(), h);
            if (before != null) {
                throw new BadFleetInputException(h.file() + ": host '" + h.host() + "' already given by " + before.file()
                        + " (one document per host)");
            }
        }
        List<SetupDifference> differences = SetupDifference.of(inputs);
        List<HostRehearsal> hosts = new ArrayList<>();
        for (HostRehearsal h : inputs) {
            List<String> differs = differences.stream().filter(d -> d.hosts().containsKey(h.host())).map(SetupDifference::attribute)
                    .toList();
            hosts.add(h.differing(differs));
        }
        hosts.sort(SLOWEST_FIRST);
        Map<String, Double> downtimes = new LinkedHashMap<>();
        Set<String> phaseNames = new LinkedHashSet<>();
        List<String> partial = new ArrayList<>();
        for (HostRehearsal h : hosts) {
            if (h.downtimeMs() != null) {
                downtimes.put(h.host(), h.downtimeMs());
            }
            phaseNames.addAll(h.phasesMs().keySet());
            if (h.partial()) {
                partial.add(h.host());
            }
        }
        // a phase that is the preparation on some hosts (a migration window's reset) and downtime on others (an
        // in-place window's reset) is two figures: one spread of each, never the two mixed under "not downtime"
        List<Spread> phases = new ArrayList<>();
        for (String phase : phaseNames) {
            for (boolean preparation : new boolean[] {false, true}) {
                Map<String, Double> values = new LinkedHashMap<>();
                for (HostRehearsal h : hosts) {
                    Double v = h.phasesMs().get(phase);
                    if (v != null && h.preparation().contains(phase) == preparation) {
                        values.put(h.host(), v);
                    }
                }
                if (!values.isEmpty()) {
                    phases.add(Spread.of(phase, values, preparation));
                }
            }
        }
        return new FleetReport(figures(hosts), List.copyOf(hosts), Spread.of("downtime", downtimes), phases,
                partial, List.copyOf(differences));
    }

    private static String figures(List<HostRehearsal> hosts) {
        long simulated = hosts.stream().filter(HostRehearsal::simulated).count();
        if (simulated == hosts.size()) {
            return "simulated";
        }
        return simulated == 0 ? "measured" : "mixed";
    }
}
