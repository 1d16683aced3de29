package org.vdpactl.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The start-up breakdown of part "classes" (scripts/lib/bench-classes.sh's {@code classes.txt}): per command
 * and variant, how many classes each phase of a start-up loads, and how many of them the JVM had to load,
 * parse and verify from a jar or generate at run time (not mapped from the JDK's or the build's archive).
 * A class count does not move with the machine's load, so this part's figures stand whatever the load.
 */
final class StartupClasses {
    /** A phase: a name and the package prefixes it owns (the first that matches wins). */
    private record Phase(String name, List<String> prefixes) {
    }

    /** In the table's order; the JVM's own comes last because it takes what no other phase claims. */
    private static final List<Phase> PHASES = List.of(
            new Phase("picocli (the command model, parsing, help)", List.of("picocli")),
            new Phase("Jackson (JSON: --json, the fake's state and profiles)", List.of("com.fasterxml")),
            new Phase("SLF4J and vdpactl's logger", List.of("org.slf4j", "org.vdpactl.cli.log")),
            new Phase("vdpactl CLI (org.vdpactl.cli)", List.of("org.vdpactl.cli")),
            new Phase("the fake kernel (org.vdpactl.fake)", List.of("org.vdpactl.fake")),
            new Phase("bindings and syscall seam (org.vdpactl.ffi, .sys, .abi)", List.of("org.vdpactl.ffi", "org.vdpactl.sys", "org.vdpactl.abi")),
            new Phase("client, reports (netlink, vhost, mgmt, orchestra, report)", List.of("org.vdpactl")),
            new Phase("JNR (jnr-constants, jnr-posix)", List.of("jnr", "com.kenai")),
            new Phase("method handles, lambdas, proxies (java.lang.invoke, generated)", List.of("java.lang.invoke", "jdk.proxy", "com.sun.proxy")),
            new Phase("FFM (jdk.internal.foreign)", List.of("jdk.internal.foreign")),
            new Phase("JDK, the rest (java.*, jdk.*, sun.*)", List.of("java", "jdk", "sun", "com.sun", "javax")),
            new Phase("other", List.of("")));

    /** One command run: its exit status and per phase {all, not from an archive}. */
    record Run(String status, Map<String, int[]> phases) {
        int all() {
            return phases.values().stream().mapToInt(p -> p[0]).sum();
        }

        int fromJars() {
            return phases.values().stream().mapToInt(p -> p[1]).sum();
        }

        int[] phase(String name) {
            return phases.getOrDefault(name, new int[2]);
        }
    }

    /** variant -> command -> run, in the file's order. */
    private final Map<String, Map<String, Run>> runs = new LinkedHashMap<>();

    /** What was made or read at run time instead of mapped from an archive, by kind, in the table's order. */
    static final Map<String, String> KINDS = new LinkedHashMap<>();

    static {
        KINDS.put("downcall-stub", "FFM downcall stubs (one per distinct downcall handle linked)");
        KINDS.put("lambda-form", "lambda forms (method handle shapes: most of them around the downcall stubs)");
        KINDS.put("proxy", "proxies (annotation instances read by reflection: picocli's command model)");
        KINDS.put("type-switch", "pattern-switch classes (SwitchBootstraps)");
        KINDS.put("lambda", "lambdas and other invokedynamic classes");
        KINDS.put("other-hidden", "other generated classes");
        KINDS.put("jar", "classes read, parsed and verified from a jar or the JDK's modules");
    }

    /** "variant command" -> kind -> count (lines "generated VARIANT COMMAND KIND COUNT"; records before them have none). */
    private final Map<String, Map<String, Integer>> generated = new LinkedHashMap<>();

    static StartupClasses parse(String text) {
        StartupClasses c = new StartupClasses();
        for (String line : text.split("\n")) {
            String[] w = line.strip().split(" ");
            if (w.length == 5 && w[0].equals("generated")) {
                c.generated.computeIfAbsent(w[1] + " " + w[2], k -> new LinkedHashMap<>()).merge(w[3], Integer.parseInt(w[4]), Integer::sum);
                continue;
            }
            if (w.length != 6) {
                continue;
            }
            Run run = c.runs.computeIfAbsent(w[0], v -> new LinkedHashMap<>())
                    .computeIfAbsent(w[1], k -> new Run(w[2], new LinkedHashMap<>()));
            int[] counts = run.phases().computeIfAbsent(phaseOf(w[3]), k -> new int[2]);
            counts[0] += Integer.parseInt(w[4]);
            counts[1] += Integer.parseInt(w[5]);
        }
        return c;
    }

    private static String phaseOf(String pkg) {
        for (Phase p : PHASES) {
            for (String prefix : p.prefixes()) {
                if (prefix.isEmpty() || pkg.equals(prefix) || pkg.startsWith(prefix + ".") || pkg.startsWith(prefix)
                        && prefix.equals("jdk.proxy")) {
                    return p.name();
                }
            }
        }
        return "other";
    }

    Run run(String variant, String command) {
        Map<String, Run> v = runs.get(variant);
        return v == null ? null : v.get(command);
    }

    List<String> commands(String variant) {
        return runs.containsKey(variant) ? List.copyOf(runs.get(variant).keySet()) : List.of();
    }

    /** The count of {@code kind} in one run (0 if none), or null when the record has no such breakdown. */
    Integer generated(String variant, String command, String kind) {
        Map<String, Integer> k = generated.get(variant + " " + command);
        return k == null ? null : k.getOrDefault(kind, 0);
    }

    /**
     * What each command still made or read at run time, by kind, without and with the build's archive: where the
     * start-up's work goes once the archive has mapped what it can. False when the record has no such lines.
     */
    boolean kindsTable(Markdown md, Map<String, String> shown) {
        if (generated.isEmpty()) {
            return false;
        }
        md.line("Not mapped from an archive, by kind: what the JVM still generated or read at run time"
                + " (each column adds up to its \"from jars\" total above):").blank();
        List<String> commands = commands("default");
        List<String> header = header("Made or read at run time", commands, shown, ", no archive", "with the archive");
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<String, String> k : KINDS.entrySet()) {
            List<String> row = new ArrayList<>(List.of(k.getValue()));
            for (String c : commands) {
                row.add(String.valueOf(generated("default", c, k.getKey())));
                if (run("build-archive", c) != null) {
                    row.add(String.valueOf(generated("build-archive", c, k.getKey())));
                }
            }
            rows.add(row);
        }
        md.table(header, rows);
        return true;
    }

    /** A table's header: {@code first}, then per command its column without the archive and, if it ran, with it. */
    private List<String> header(String first, List<String> commands, Map<String, String> shown, String without, String with) {
        List<String> header = new ArrayList<>(List.of(first));
        for (String c : commands) {
            header.add(shown.getOrDefault(c, c) + without);
            if (run("build-archive", c) != null) {
                header.add(with);
            }
        }
        return header;
    }

    /** The breakdown table: a row per phase, per command a column of classes loaded (of them from jars) without and with the archive. */
    void table(Markdown md, Map<String, String> shown) {
        List<String> commands = commands("default");
        List<String> header = header("Phase", commands, shown, ": loaded (from jars), no archive", "from jars with the archive");
        List<List<String>> rows = new ArrayList<>();
        for (Phase p : PHASES) {
            List<String> row = new ArrayList<>(List.of(p.name()));
            boolean any = false;
            for (String c : commands) {
                int[] d = run("default", c).phase(p.name());
                any |= d[0] > 0;
                row.add(d[0] + " (" + d[1] + ")");
                Run a = run("build-archive", c);
                if (a != null) {
                    row.add(String.valueOf(a.phase(p.name())[1]));
                }
            }
            if (any) {
                rows.add(row);
            }
        }
        List<String> total = new ArrayList<>(List.of("**total**"));
        List<String> status = new ArrayList<>(List.of("exit status"));
        for (String c : commands) {
            Run d = run("default", c);
            total.add("**" + d.all() + " (" + d.fromJars() + ")**");
            status.add(d.status());
            Run a = run("build-archive", c);
            if (a != null) {
                total.add("**" + a.fromJars() + "** of " + a.all());
                status.add(a.status());
            }
        }
        rows.add(total);
        rows.add(status);
        md.table(header, rows);
    }
}
