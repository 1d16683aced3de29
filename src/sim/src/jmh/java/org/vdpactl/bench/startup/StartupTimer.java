package org.vdpactl.bench.startup;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Wall and CPU time of whole command lines (JVM start to exit), for the CLI start-up comparison.
 *
 * <p>Each run goes through {@code bash -c '"$@"; times'}: bash's {@code times} reports the user and system CPU
 * time of the command it waited for (getrusage of its children), which is what the command cost the machine
 * whatever else ran beside it; the wall time includes bash's own start (a few ms, alike for every variant).
 * The load average is read before every run and kept, so the record shows the load the part met.
 *
 * <p>The variants run interleaved, round by round (A B C, A B C, ...), so a burst of load on the machine
 * hits every variant alike instead of one; the first rounds only warm the page cache and are not kept.
 *
 * <p>Usage: {@code StartupTimer OUT.json ROUNDS WARMUP-ROUNDS NAME[:STATUS]=COMMAND... } where COMMAND is one
 * argument with the words separated by {@code \u001f} (unit separator), so paths with spaces survive.
 * Every run's exit status must be STATUS (default 0): a variant that fails otherwise is reported, never timed.
 */
public final class StartupTimer {
    private StartupTimer() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int warmup = Integer.parseInt(args[2]);
        Map<String, List<String>> variants = new LinkedHashMap<>();
        Map<String, Integer> statuses = new LinkedHashMap<>();
        for (String v : Arrays.asList(args).subList(3, args.length)) {
            int eq = v.indexOf('=');
            String name = v.substring(0, eq);
            int colon = name.indexOf(':');
            int status = colon < 0 ? 0 : Integer.parseInt(name.substring(colon + 1));
            name = colon < 0 ? name : name.substring(0, colon);
            variants.put(name, List.of(v.substring(eq + 1).split("\u001f")));
            statuses.put(name, status);
        }
        Map<String, List<Double>> millis = new LinkedHashMap<>();
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        List<Double> loads = new ArrayList<>();
        variants.keySet().forEach(k -> {
            millis.put(k, new ArrayList<>());
            cpu.put(k, new ArrayList<>());
        });
        for (int r = 0; r < warmup + rounds; r++) {
            for (Map.Entry<String, List<String>> v : variants.entrySet()) {
                double load = loadAverage();
                double[] t = timeOnce(v.getKey(), v.getValue(), statuses.get(v.getKey()));
                if (r >= warmup) {
                    millis.get(v.getKey()).add(t[0]);
                    cpu.get(v.getKey()).add(t[1]);
                    loads.add(load);
                }
            }
        }
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        root.put("rounds", rounds);
        root.put("warmupRounds", warmup);
        root.put("cpuTime", "user + system CPU of the command (bash times), ms");
        ArrayNode loadSamples = root.putArray("loadAverages");
        loads.forEach(loadSamples::add);
        ObjectNode all = root.putObject("variants");
        for (Map.Entry<String, List<Double>> e : millis.entrySet()) {
            ObjectNode v = all.putObject(e.getKey());
            v.put("command", String.join(" ", variants.get(e.getKey())));
            ArrayNode samples = v.putArray("millis");
            e.getValue().forEach(samples::add);
            ArrayNode cpuSamples = v.putArray("cpuMillis");
            cpu.get(e.getKey()).forEach(cpuSamples::add);
            v.put("exitStatus", statuses.get(e.getKey()));
        }
        json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
    }

    /** The 1-minute load average now (/proc/loadavg), or -1 where there is none. */
    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** {wall ms, CPU ms} of one run of {@code command}, which must exit {@code expected}. */
    private static double[] timeOnce(String name, List<String> command, int expected) throws IOException, InterruptedException {
        List<String> wrapped = new ArrayList<>(List.of("bash", "-c",
                "\"$@\" </dev/null >/dev/null 2>&1; s=$?; times >&2; exit $s", "startup-timer"));
        wrapped.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(wrapped)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        long t0 = System.nanoTime();
        Process p = pb.start();
        String times = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        int status = p.waitFor();
        long t1 = System.nanoTime();
        if (status != expected) {
            throw new IllegalStateException("start-up variant " + name + " exited " + status + " (expected " + expected + "): "
                    + String.join(" ", command));
        }
        return new double[] {(t1 - t0) / 1e6, childrenCpuMillis(times)};
    }

    /** The children's line of bash's {@code times} ("0m0.270s 0m0.060s": user, system) as user + system ms. */
    static double childrenCpuMillis(String times) {
        String[] lines = times.strip().split("\n");
        double ms = 0;
        for (String t : lines[lines.length - 1].strip().split("\\s+")) {
            int m = t.indexOf('m');
            ms += (Integer.parseInt(t.substring(0, m)) * 60 + Double.parseDouble(t.substring(m + 1, t.length() - 1))) * 1000;
        }
        return ms;
    }
}
