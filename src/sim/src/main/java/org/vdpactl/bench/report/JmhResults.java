package org.vdpactl.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One JMH JSON result file ({@code -rf json}), reduced to what the report prints: per benchmark method
 * (and parameter set) every measured iteration of every fork, plus the secondary metrics of profilers.
 */
public final class JmhResults {
    /** One benchmark run: raw primary samples and, per secondary metric, its samples. */
    public record Run(String method, Map<String, String> params, String unit, List<Double> samples,
                      Map<String, List<Double>> secondary, Map<String, String> secondaryUnits) {
        public Summary summary() {
            return Summary.of(samples);
        }

        public Optional<Summary> secondary(String metric) {
            List<Double> s = secondary.get(metric);
            return s == null || s.isEmpty() ? Optional.empty() : Optional.of(Summary.of(s));
        }

        /** {@code method} or {@code method[n=1000]} when the run has parameters. */
        public String label() {
            if (params.isEmpty()) {
                return method;
            }
            List<String> p = new ArrayList<>();
            params.forEach((k, v) -> p.add(k + "=" + v));
            return method + "[" + String.join(",", p) + "]";
        }
    }

    private final List<Run> runs;

    private JmhResults(List<Run> runs) {
        this.runs = runs;
    }

    /**
     * Every {@code PREFIX.json} and {@code PREFIX-N.json} of a run (scripts/bench runs JMH in rounds, one
     * fork per benchmark per round, so that drifting load on the machine spreads over every variant), merged:
     * the samples of the same benchmark and parameters from all rounds together.
     */
    static JmhResults read(ResultFiles files, String prefix) throws IOException {
        Map<String, Run> merged = new LinkedHashMap<>();
        for (String n : files.names()) {
            if (n.equals(prefix + ".json") || n.matches(Pattern.quote(prefix) + "-\\d+\\.json")) {
                for (Run r : parse(files.text(n).orElseThrow()).runs) {
                    merged.merge(r.label(), r, JmhResults::merge);
                }
            }
        }
        return new JmhResults(new ArrayList<>(merged.values()));
    }

    private static Run merge(Run a, Run b) {
        List<Double> samples = new ArrayList<>(a.samples());
        samples.addAll(b.samples());
        Map<String, List<Double>> secondary = new LinkedHashMap<>();
        a.secondary().forEach((k, v) -> secondary.put(k, new ArrayList<>(v)));
        b.secondary().forEach((k, v) -> secondary.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v));
        Map<String, String> units = new LinkedHashMap<>(a.secondaryUnits());
        units.putAll(b.secondaryUnits());
        return new Run(a.method(), a.params(), a.unit(), samples, secondary, units);
    }

    /** The text of one JMH JSON file. */
    static JmhResults parse(String json) throws IOException {
        List<Run> runs = new ArrayList<>();
        JsonNode root = new ObjectMapper().readTree(json);
        for (JsonNode b : root) {
            String name = b.get("benchmark").asText();
            String method = name.substring(name.lastIndexOf('.') + 1);
            Map<String, String> params = new LinkedHashMap<>();
            JsonNode p = b.get("params");
            if (p != null) {
                p.fields().forEachRemaining(e -> params.put(e.getKey(), e.getValue().asText()));
            }
            JsonNode primary = b.get("primaryMetric");
            Map<String, List<Double>> secondary = new LinkedHashMap<>();
            Map<String, String> units = new LinkedHashMap<>();
            JsonNode sec = b.get("secondaryMetrics");
            if (sec != null) {
                sec.fields().forEachRemaining(e -> {
                    secondary.put(e.getKey(), flatten(e.getValue().get("rawData")));
                    units.put(e.getKey(), e.getValue().get("scoreUnit").asText());
                });
            }
            runs.add(new Run(method, params, primary.get("scoreUnit").asText(), flatten(primary.get("rawData")), secondary, units));
        }
        return new JmhResults(runs);
    }

    private static List<Double> flatten(JsonNode rawData) {
        List<Double> out = new ArrayList<>();
        if (rawData != null) {
            for (JsonNode fork : rawData) {
                for (JsonNode it : fork) {
                    out.add(it.asDouble());
                }
            }
        }
        return out;
    }

    public List<Run> runs() {
        return runs;
    }

    public boolean isEmpty() {
        return runs.isEmpty();
    }

    public Optional<Run> run(String method) {
        return runs.stream().filter(r -> r.method().equals(method)).findFirst();
    }
}
