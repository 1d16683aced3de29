package org.vdpactl.report.fleet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One setup attribute in which the merged hosts differ: the value most of them share and the hosts
 * that have another one (those are flagged in every form of the report).
 *
 * @param attribute  "strategy", "window", "kernel", "backend", "preset" or "clock"
 * @param usual      the value most hosts have (on a tie, the one that comes first alphabetically)
 * @param hosts      each host with another value, and that value
 */
public record SetupDifference(String attribute, String usual, Map<String, String> hosts) {

    /** The attributes in which {@code hosts} do not all agree, in {@link HostSetup#attributes()} order. */
    static List<SetupDifference> of(List<HostRehearsal> hosts) {
        List<SetupDifference> out = new ArrayList<>();
        if (hosts.isEmpty()) {
            return out;
        }
        for (String attribute : HostSetup.NAMES) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (HostRehearsal h : hosts) {
                counts.merge(h.setup().attributes().get(attribute), 1, Integer::sum);
            }
            if (counts.size() < 2) {
                continue;
            }
            String usual = counts.entrySet().stream()
                    .max(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())))
                    .orElseThrow().getKey();
            Map<String, String> odd = new LinkedHashMap<>();
            for (HostRehearsal h : hosts) {
                String v = h.setup().attributes().get(attribute);
                if (!v.equals(usual)) {
                    odd.put(h.host(), v);
                }
            }
            out.add(new SetupDifference(attribute, usual, odd));
        }
        return out;
    }

    /** "strategy: serial on h1 (the others: parallel)". */
    public String describe() {
        List<String> parts = new ArrayList<>();
        hosts.forEach((host, v) -> parts.add(v + " on " + host));
        return attribute + ": " + String.join(", ", parts) + " (the others: " + usual + ")";
    }
}
