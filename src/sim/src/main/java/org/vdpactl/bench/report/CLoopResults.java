package org.vdpactl.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The C programs' own timings (src/bench/c): lines {@code <operation> <value>}, one per timed repetition, where
 * the operation is named like the JMH method it is compared with and has the same unit.
 */
final class CLoopResults {
    private CLoopResults() {
    }

    static Map<String, Summary> parse(String text) {
        Map<String, List<Double>> samples = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 2 && !f[0].startsWith("#")) {
                samples.computeIfAbsent(f[0], k -> new ArrayList<>()).add(Double.parseDouble(f[1]));
            }
        }
        Map<String, Summary> out = new LinkedHashMap<>();
        samples.forEach((k, v) -> out.put(k, Summary.of(v)));
        return out;
    }
}
