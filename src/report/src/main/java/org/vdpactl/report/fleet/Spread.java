package org.vdpactl.report.fleet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * How one figure (the downtime, or one phase) is spread across the hosts: nearest-rank percentiles
 * of the hosts' medians. With a few hosts p90 is simply one of the slowest; the report says how many
 * hosts each line covers.
 *
 * @param name         "downtime" or the phase label
 * @param hosts        hosts that have the figure
 * @param minMs        fastest host
 * @param p50Ms        median host
 * @param p90Ms        90th percentile host (nearest rank)
 * @param maxMs        slowest host
 * @param meanMs       mean over the hosts
 * @param slowestHost  the host of {@code maxMs}; null when every host has the same figure (no host is slower), and on a
 *                     tie for the slowest the first of them by name
 * @param preparation  true when the phase is these hosts' preparation (the reset of a migration window), not
 *                     downtime: a phase that is downtime on other hosts (an in-place window's reset) gets its own spread
 */
public record Spread(String name, int hosts, double minMs, double p50Ms, double p90Ms, double maxMs, double meanMs,
        String slowestHost, boolean preparation) {

    /** The spread of {@code values} (host to milliseconds) of a downtime figure; none when the map is empty. */
    static Spread of(String name, Map<String, Double> values) {
        return of(name, values, false);
    }

    /** The spread of {@code values} (host to milliseconds); none when the map is empty. */
    static Spread of(String name, Map<String, Double> values, boolean preparation) {
        if (values.isEmpty()) {
            return null;
        }
        List<Map.Entry<String, Double>> sorted = new ArrayList<>(values.entrySet());
        sorted.sort(Map.Entry.<String, Double>comparingByValue().thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())));
        int n = sorted.size();
        double sum = 0;
        for (Map.Entry<String, Double> e : sorted) {
            sum += e.getValue();
        }
        Map.Entry<String, Double> slowest = sorted.get(n - 1);
        // a slowest host among equals would send someone to look at a host that is no slower than the rest
        boolean allTie = n > 1 && sorted.get(0).getValue().equals(slowest.getValue());
        return new Spread(name, n, sorted.get(0).getValue(), rank(sorted, 0.50), rank(sorted, 0.90), slowest.getValue(),
                sum / n, allTie ? null : slowest.getKey(), preparation);
    }

    private static double rank(List<Map.Entry<String, Double>> sorted, double q) {
        int index = (int) Math.ceil(q * sorted.size()) - 1;
        return sorted.get(Math.max(0, index)).getValue();
    }
}
