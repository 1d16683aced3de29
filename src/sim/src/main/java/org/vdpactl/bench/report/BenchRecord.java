package org.vdpactl.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.UnaryOperator;

/**
 * One part of one scripts/bench run as committed (docs/bench-records/PART/DATE.json): when and on what
 * machine it ran (CPU model, cores, kernel, JDK), the command and its parameters, the commands it ran and
 * the raw results (JMH's JSON as JMH wrote it, the C programs' and start-up timer's own output). The
 * document's figures are rendered from these and nothing else.
 *
 * <p>This machine's paths never enter a record: the build directory, the checkout and the JDK are written
 * {@code $BUILD}, {@code .} and {@code $JAVA_HOME} wherever they occur, in the raw results too.
 */
record BenchRecord(BenchPart part, String date, String commit, Map<String, String> machine, String command,
                   Map<String, String> parameters, List<String> commands, JsonNode files, String code) {
    static final String SCHEMA = "vdpactl-bench-record/1";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** machine.properties key -> the record's key. */
    private static final Map<String, String> MACHINE = new LinkedHashMap<>();

    static {
        MACHINE.put("cpu", "cpu");
        MACHINE.put("nproc", "cores");
        MACHINE.put("kernel", "kernel");
        MACHINE.put("jdk", "jdk");
        MACHINE.put("gcc", "gcc");
        MACHINE.put("cflags", "cflags");
        MACHINE.put("jmh", "jmh");
        MACHINE.put("load.before", "load_before");
        MACHINE.put("load.after", "load_after");
        MACHINE.put("foreign.cpu", "foreign_cpu_share");
    }

    /** Above this 1-minute load average before or after a part, a record without the foreign CPU share judges no goal. */
    static final double QUIET_LOAD = 1.5;

    /**
     * Above this share of the machine's CPU capacity used by other processes during the part (scripts/bench's
     * {@code foreign.cpu.PART}: the machine's busy time minus the part's own), something else ran beside it.
     */
    static final double QUIET_FOREIGN_CPU = 0.10;

    /** The highest load average recorded before and after this part, or NaN when the record has none. */
    double load() {
        try {
            return Math.max(Double.parseDouble(machine.getOrDefault("load_before", "?")), Double.parseDouble(machine.getOrDefault("load_after", "?")));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** Other processes' share of the CPU capacity during the part, or NaN for a record written before it was measured. */
    double foreignCpu() {
        try {
            return Double.parseDouble(machine.getOrDefault("foreign_cpu_share", "?"));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /**
     * Whether this record may judge a goal. Part "classes" counts classes, which the load does not change, so each
     * of its records does. A record with the foreign CPU share: the others' share during the part at most
     * {@link #QUIET_FOREIGN_CPU}. The load average says less: after a part, and before the next, it is mostly the run's
     * own JVMs (the start-up part leaves it near 3 on two CPUs with nothing else running). An older record without
     * the share: the load before and after at most {@link #QUIET_LOAD}.
     */
    boolean quiet() {
        if (part == BenchPart.CLASSES) {
            return true;
        }
        double foreign = foreignCpu();
        if (Double.isNaN(foreign)) {
            return load() <= QUIET_LOAD;
        }
        return foreign <= QUIET_FOREIGN_CPU;
    }

    /** "before / after" (and the others' CPU share where measured) with LOADED when the record is not {@link #quiet()}. */
    String loadText() {
        String text = machine.getOrDefault("load_before", "?") + " / " + machine.getOrDefault("load_after", "?");
        double foreign = foreignCpu();
        if (!Double.isNaN(foreign)) {
            text += String.format(Locale.ROOT, ", other processes %.1f %% of the CPUs", foreign * 100);
        }
        if (quiet()) {
            return text;
        }
        return text + (Double.isNaN(foreign)
                ? " (LOADED: above " + QUIET_LOAD + ")"
                : " (LOADED: other processes above " + Math.round(QUIET_FOREIGN_CPU * 100) + " %)");
    }

    /**
     * Which code the part measured: scripts/bench's fingerprint of every committed file of src/ but the tests, scripts/
     * and pom.xml ({@code code}), so that records of commits that changed only tests, documents or records share it; a
     * record without one is its own code (its commit), and a tree with uncommitted changes gets a code of its own.
     */
    String codeKey() {
        return code.isEmpty() ? "commit " + commit : code;
    }

    /**
     * Which machine ran the part: its CPU model and cores. Ratios carry across machines only so far (C against Java,
     * a JVM hello against a command, the model's waits against the calls all lean on the CPU's caches and branch
     * predictors differently), so runs on two machines are not one figure's spread.
     */
    String machineKey() {
        return machine.getOrDefault("cpu", "?") + ", " + machine.getOrDefault("cores", "?") + " cores";
    }

    /** What a goal's quiet runs must share: the code measured ({@link #codeKey}) and the machine ({@link #machineKey}). */
    String judgedTogether() {
        return codeKey() + " on " + machineKey();
    }

    ResultFiles results() {
        return ResultFiles.of(files);
    }

    /** What the figures are: every record's are measured; the VM part's on an emulated CPU. */
    String kind() {
        return part == BenchPart.VM ? "measured in a QEMU TCG guest, an emulated CPU" : "measured";
    }

    /** The record of each part that ran in scripts/bench's results directory {@code results}, written under {@code recordsDir}. */
    static List<Path> write(Path results, Path recordsDir) throws IOException {
        Properties machine = properties(results.resolve("machine.properties"));
        Properties run = properties(results.resolve("run.properties"));
        Properties commands = properties(results.resolve("commands.properties"));
        UnaryOperator<String> shown = shown(machine);
        ResultFiles files = ResultFiles.of(results);
        String date = machine.getProperty("date", "?");
        List<Path> written = new ArrayList<>();
        for (BenchPart part : BenchPart.values()) {
            if (!part.ran(files)) {
                continue;
            }
            ObjectNode record = JSON.createObjectNode();
            record.put("schema", SCHEMA);
            record.put("part", part.id());
            record.put("date", date);
            record.put("commit", machine.getProperty("commit", "?"));
            if (!machine.getProperty("code", "").isEmpty()) {
                record.put("code", machine.getProperty("code"));
            }
            ObjectNode m = record.putObject("machine");
            // the load of the part itself where scripts/bench recorded it (load.before.PART), else of the whole run
            MACHINE.forEach((k, v) -> m.put(v, shown.apply(machine.getProperty(k + "." + part.id(), machine.getProperty(k, "?")))));
            record.put("command", run.getProperty("command", "scripts/bench"));
            ObjectNode p = record.putObject("parameters");
            for (String k : part.parameterKeys()) {
                if (run.containsKey(k)) {
                    p.put(k, run.getProperty(k));
                }
            }
            p.put("reduced", run.getProperty("reduced." + part.id(), run.getProperty("reduced", "no")));
            ArrayNode c = record.putArray("commands");
            for (String k : part.commandKeys()) {
                if (commands.containsKey(k)) {
                    c.add(shown.apply(commands.getProperty(k)));
                }
            }
            ObjectNode f = record.putObject("files");
            for (String name : files.names()) {
                if (part.owns(name)) {
                    String text = files.text(name).orElseThrow();
                    f.set(name, name.endsWith(".json") ? sanitized(JSON.readTree(text), shown) : TextNode.valueOf(shown.apply(text)));
                }
            }
            Path out = freeName(recordsDir.resolve(part.id()), date.replace("-", "").replace(":", ""));
            Files.createDirectories(out.getParent());
            Files.writeString(out, JSON.writeValueAsString(record) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
            written.add(out);
        }
        return written;
    }

    /**
     * {@code STAMP.json} in {@code dir}, or {@code STAMP-2.json}, {@code -3} ... when two runs began in the same minute
     * (the date has minutes only): a record is never written over another.
     */
    static Path freeName(Path dir, String stamp) {
        Path out = dir.resolve(stamp + ".json");
        for (int n = 2; Files.exists(out); n++) {
            out = dir.resolve(stamp + "-" + n + ".json");
        }
        return out;
    }

    /** Every record of {@code part} under {@code recordsDir}, oldest first. */
    static List<BenchRecord> readAll(Path recordsDir, BenchPart part) throws IOException {
        Path dir = recordsDir.resolve(part.id());
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<BenchRecord> out = new ArrayList<>();
        try (var s = Files.list(dir)) {
            for (Path f : s.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                out.add(read(f, part));
            }
        }
        out.sort(Comparator.comparing(BenchRecord::date));
        return out;
    }

    static Optional<BenchRecord> latest(Path recordsDir, BenchPart part) throws IOException {
        List<BenchRecord> all = readAll(recordsDir, part);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.getLast());
    }

    private static BenchRecord read(Path file, BenchPart part) throws IOException {
        JsonNode r = JSON.readTree(file.toFile());
        if (!SCHEMA.equals(r.path("schema").asText()) || !part.id().equals(r.path("part").asText())) {
            throw new IOException(file + ": not a " + SCHEMA + " record of part " + part.id());
        }
        List<String> commands = new ArrayList<>();
        r.path("commands").forEach(c -> commands.add(c.asText()));
        return new BenchRecord(part, r.path("date").asText(), r.path("commit").asText(), strings(r.path("machine")),
                r.path("command").asText(), strings(r.path("parameters")), commands, r.path("files"), r.path("code").asText(""));
    }

    private static Map<String, String> strings(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        object.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    /** This machine's build directory, checkout and JDK as $BUILD, . and $JAVA_HOME (the build directory may lie inside the checkout). */
    static UnaryOperator<String> shown(Properties machine) {
        String build = machine.getProperty("path.build", "");
        String root = machine.getProperty("path.root", "");
        String javaHome = machine.getProperty("path.java_home", "");
        return s -> {
            String out = s;
            if (!build.isEmpty()) {
                out = out.replace(build, "$BUILD");
            }
            if (!javaHome.isEmpty()) {
                out = out.replace(javaHome, "$JAVA_HOME");
            }
            if (!root.isEmpty()) {
                out = out.replace(root + "/", "").replace(root, ".");
            }
            return out;
        };
    }

    private static JsonNode sanitized(JsonNode node, UnaryOperator<String> shown) {
        if (node.isTextual()) {
            return TextNode.valueOf(shown.apply(node.asText()));
        }
        if (node.isArray()) {
            ArrayNode a = (ArrayNode) node;
            for (int i = 0; i < a.size(); i++) {
                a.set(i, sanitized(a.get(i), shown));
            }
        } else if (node.isObject()) {
            ObjectNode o = (ObjectNode) node;
            for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                o.set(k, sanitized(o.get(k), shown));
            }
        }
        return node;
    }

    static Properties properties(Path file) throws IOException {
        Properties p = new Properties();
        if (Files.exists(file)) {
            p.load(new StringReader(Files.readString(file, StandardCharsets.UTF_8)));
        }
        return p;
    }
}
