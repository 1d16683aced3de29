package org.vdpactl.bench.startup;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Wall time of whole command lines (JVM start to exit), for the CLI start-up comparison.
 *
 * <p>The variants run interleaved, round by round (A B C, A B C, ...), so a burst of load on the machine
 * hits every variant alike instead of one; the first rounds only warm the page cache and are not kept.
 *
 * <p>Usage: {@code StartupTimer OUT.json ROUNDS WARMUP-ROUNDS NAME=COMMAND... } where COMMAND is one
 * argument with the words separated by {@code \u001f} (unit separator), so paths with spaces survive.
 * Every run's exit status must be 0: a variant that fails is reported, never timed.
 */
public final class StartupTimer {
    private StartupTimer() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int warmup = Integer.parseInt(args[2]);
        Map<String, List<String>> variants = new LinkedHashMap<>();
        for (String v : Arrays.asList(args).subList(3, args.length)) {
            int eq = v.indexOf('=');
            variants.put(v.substring(0, eq), List.of(v.substring(eq + 1).split("\u001f")));
        }
        Map<String, List<Double>> millis = new LinkedHashMap<>();
        variants.keySet().forEach(k -> millis.put(k, new ArrayList<>()));
        for (int r = 0; r < warmup + rounds; r++) {
            for (Map.Entry<String, List<String>> v : variants.entrySet()) {
                double ms = timeOnce(v.getKey(), v.getValue());
                if (r >= warmup) {
                    millis.get(v.getKey()).add(ms);
                }
            }
        }
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        root.put("rounds", rounds);
        root.put("warmupRounds", warmup);
        ObjectNode all = root.putObject("variants");
        for (Map.Entry<String, List<Double>> e : millis.entrySet()) {
            ObjectNode v = all.putObject(e.getKey());
            v.put("command", String.join(" ", variants.get(e.getKey())));
            ArrayNode samples = v.putArray("millis");
            e.getValue().forEach(samples::add);
        }
        json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
    }

    private static double timeOnce(String name, List<String> command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        long t0 = System.nanoTime();
        Process p = pb.start();
        int status = p.waitFor();
        long t1 = System.nanoTime();
        if (status != 0) {
            throw new IllegalStateException("start-up variant " + name + " exited " + status + ": " + String.join(" ", command));
        }
        return (t1 - t0) / 1e6;
    }
}
