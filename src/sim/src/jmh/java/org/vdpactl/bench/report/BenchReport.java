package org.vdpactl.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Writes docs/benchmarks.md from one results directory of scripts/bench (machine facts, exact commands,
 * the C loops' own timings, JMH JSON files, start-up timings, profiles of missed goals). The document's
 * "Orchestration" section belongs to another owner and is carried over unchanged.
 *
 * <p>Usage: {@code BenchReport RESULTS_DIR DOC}. Prints the goal summary to stdout.
 */
public final class BenchReport {
    static final String KEPT_SECTION = "## Orchestration";
    static final double SEAM_GOAL = 1.05;
    static final double IOTLB_FAKE_GOAL = 2_000_000;
    static final double IOTLB_VM_GOAL = 1.10;
    static final double STARTUP_GOAL = 0.40;
    /** Below this many bytes per message, JMH's gc.alloc.rate.norm is measurement noise (TLAB sampling). */
    static final double NO_ALLOCATION = 0.5;

    private static final Map<String, String> STARTUP_VARIANTS = new LinkedHashMap<>();

    static {
        STARTUP_VARIANTS.put("default", "the shaded jar with only the JDK's own CDS archive (what a JVM does without the build's archive); every ratio divides by this");
        STARTUP_VARIANTS.put("build-archive", "plus the archive `mvn package` trains (`target/vdpactl.aot`, `-XX:AOTCache`, JDK 25+;"
                + " `target/vdpactl.jsa` before): what `scripts/vdpactl` uses");
        STARTUP_VARIANTS.put("build-archive-java5-picocli", "the same training on a jar whose picocli classes are left as published (Java 5 class files):"
                + " the JDK cannot keep linked classes that old in an archive, so most of the CLI still loads and verifies from the jar;"
                + " this is why the build rewrites them (org.vdpactl.packaging.ClassFileModernizer)");
        STARTUP_VARIANTS.put("xshare-off", "no class-data sharing at all (`-Xshare:off`), for scale");
        STARTUP_VARIANTS.put("release-launcher", "`bin/vdpactl` of the release tar.gz (bash, JDK discovery, then the archive's"
                + " `lib/vdpactl.aot` with `-XX:AOTCache` when the JDK is the one that trained it, else `-XX:+AutoCreateSharedArchive`"
                + " into `$XDG_CACHE_HOME/vdpactl`, written by an earlier first run)");
        STARTUP_VARIANTS.put("release-launcher-no-cds", "the same launcher with `VDPACTL_NO_CDS=1`");
        STARTUP_VARIANTS.put("release-launcher-version", "`bin/vdpactl --version` of the release tar.gz, as release-launcher");
        STARTUP_VARIANTS.put("release-launcher-version-no-cds", "`bin/vdpactl --version` with `VDPACTL_NO_CDS=1`");
    }

    private static final Map<String, String> IOTLB_BENCHMARKS = Map.of(
            "planEncodeWrite", "`VhostVdpaDevice.mapAll` + `unmapAll` into the fake: GET_IOVA_RANGE, planning, encoding, write(2), the fake's IOTLB",
            "encodeWrite", "`apply` of plans made once: encoding + write(2) + the fake's IOTLB",
            "planOnly", "`IotlbBatchPlanner.planMap` + `planUnmap` alone",
            "encodeOnly", "`IotlbCodec.encode` of every message of the plans into one reused buffer, no write: the Java side of the hot path"
                    + " (it reads the plans through `message(i)`, whose record is the allocation shown; `apply` reads their arrays)",
            "encodeWriteDevNull", "`apply` of plans made once to `/dev/null` through `PanamaSyscalls`: the library's hot path and real write(2)s, nothing else allocating");
    private static final Map<String, String> NETLINK_BENCHMARKS = Map.of(
            "encodeDevNew", "a DEV_NEW request (mgmtdev, name, MAC, MTU, max_vqp) into a reused `MessageWriter`",
            "decodeDevGetReply", "one DEV_GET reply datagram (the fake's bytes) to a `VdpaDevInfo`",
            "decodeDump1000", "the datagrams of a 1000-device DEV_GET dump (captured from the fake) to 1000 `VdpaDevInfo`s",
            "dump1000Devices", "`VdpaNetlink.devices()` end to end: request, the fake's dump, datagrams through its socket, decoding");

    private final Path results;
    private final Properties machine;
    private final Properties commands;
    private final List<String[]> goals = new ArrayList<>();

    private BenchReport(Path results) throws IOException {
        this.results = results;
        this.machine = properties(results.resolve("machine.properties"));
        this.commands = properties(results.resolve("commands.properties"));
    }

    public static void main(String[] args) throws IOException {
        Path results = Path.of(args[0]);
        Path doc = Path.of(args[1]);
        BenchReport r = new BenchReport(results);
        String kept = keptSection(doc);
        String text = r.render() + (kept.isEmpty() ? "" : "\n" + kept);
        Files.writeString(doc, text, StandardCharsets.UTF_8);
        for (String[] g : r.goals) {
            System.out.println(String.format("%-8s %s: %s", g[2], g[0], g[1]));
        }
    }

    /** The kept section of the current document, from its heading to the next level-2 heading or the end. */
    static String keptSection(Path doc) throws IOException {
        if (!Files.exists(doc)) {
            return "";
        }
        List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
        StringBuilder kept = new StringBuilder();
        boolean in = false;
        for (String line : lines) {
            if (line.startsWith("## ")) {
                in = line.startsWith(KEPT_SECTION);
            }
            if (in) {
                kept.append(line).append('\n');
            }
        }
        return kept.toString();
    }

    private static Properties properties(Path file) throws IOException {
        Properties p = new Properties();
        if (Files.exists(file)) {
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(r);
            }
        }
        return p;
    }

    private Optional<String> text(String name) throws IOException {
        Path f = results.resolve(name);
        return Files.exists(f) ? Optional.of(Files.readString(f, StandardCharsets.UTF_8).strip()) : Optional.empty();
    }

    /** A command as the document shows it: this machine's build dir, repository and JDK paths as $BUILD, . and $JAVA_HOME. */
    String shown(String command) {
        String s = command;
        String build = machine.getProperty("path.build", "");
        String root = machine.getProperty("path.root", "");
        String javaHome = machine.getProperty("path.java_home", "");
        if (!build.isEmpty()) {
            s = s.replace(build, "$BUILD");
        }
        if (!root.isEmpty()) {
            s = s.replace(root + "/", "").replace(root, ".");
        }
        if (!javaHome.isEmpty()) {
            s = s.replace(javaHome, "$JAVA_HOME");
        }
        return s;
    }

    private void goal(String name, String measured, Boolean met) {
        goals.add(new String[] {name, measured, met == null ? "REPORTED" : met ? "MET" : "NOT MET"});
    }

    private void notRun(String name, String why) {
        goals.add(new String[] {name, why, "NOT RUN"});
    }

    String render() throws IOException {
        Markdown md = new Markdown();
        md.line("# Benchmarks").blank();
        md.line("Written by `scripts/bench` on " + machine.getProperty("date", "?") + " (commit `"
                + machine.getProperty("commit", "?") + "`); edit the scripts, not this file, except the \""
                + KEPT_SECTION.substring(3) + "\" section, which `scripts/bench` carries over unchanged.").blank();
        md.line("Every figure is **min / median / max** over the repetitions named in its table (JMH: every measured"
                + " iteration of every fork; C: every timed repetition; start-up: every process run). Ratios divide medians."
                + " Nothing here is asserted by a test: timings are reported, never checked in `mvn test`.").blank();
        machineSection(md);
        StringBuilder body = new StringBuilder();
        Markdown sections = new Markdown();
        ioctlSection(sections);
        iotlbSection(sections);
        netlinkSection(sections);
        startupSection(sections);
        vmSection(sections);
        profilesSection(sections);
        body.append(sections);
        goalsSection(md);
        commandsSection(md);
        return md + body.toString();
    }

    private void machineSection(Markdown md) {
        md.line("## Machine and JDK").blank();
        md.table(List.of("", ""), List.of(
                List.of("CPU", machine.getProperty("cpu", "?") + ", nproc = " + machine.getProperty("nproc", "?")),
                List.of("Kernel", machine.getProperty("kernel", "?")),
                List.of("JDK", machine.getProperty("jdk", "?")),
                List.of("C compiler", machine.getProperty("gcc", "?") + ", flags `" + machine.getProperty("cflags", "?") + "`"),
                List.of("JMH", machine.getProperty("jmh", "?")),
                List.of("Load average (1 min) before / after", machine.getProperty("load.before", "?") + " / "
                        + machine.getProperty("load.after", "?"))));
        md.line("A small shared machine: other processes (builds, VMs) may run during a benchmark, which is why every"
                + " figure shows its spread and the variants of one comparison run in the same invocation.").blank();
    }

    private void goalsSection(Markdown md) {
        md.line("## Goals").blank();
        List<List<String>> rows = new ArrayList<>();
        for (String[] g : goals) {
            rows.add(List.of(g[0], g[1], "**" + g[2] + "**"));
        }
        md.table(List.of("Goal", "Measured", "Status"), rows);
    }

    private void commandsSection(Markdown md) {
        md.line("## Running the benchmarks").blank();
        md.line("`scripts/bench` finds a JDK >= 22 (like `scripts/vdpactl`), builds with the `bench` Maven profile, runs every"
                + " part, prints the goal summary and rewrites this file. Options: `--quick` (a smoke run: one short fork,"
                + " figures not worth keeping), `--vm` (adds the real-device part in the VM lane), `--only ioctl,iotlb,netlink,startup`,"
                + " `--build-dir DIR` (default `target/bench`), `--no-doc`.").blank();
        md.line("- JMH benchmarks: `src/jmh/java/org/vdpactl/bench` (`IoctlBench`, `IotlbBench`, `NetlinkBench`, `VhostDeviceBench`),"
                + " compiled only by `mvn -Pbench` (the profile adds the source root, JMH as a `provided` dependency and its"
                + " annotation processor, and writes the class path to `$BUILD/jmh.classpath`); `mvn test` never sees them"
                + " and the shaded jar leaves them out.");
        md.line("- C programs: `src/bench/c` (`ioctl_loop.c`, `vhost_loop.c`), compiled by `scripts/bench` with this machine's gcc;"
                + " each times itself and prints one line per repetition.");
        md.line("- Start-up archive: trained by every `mvn package` (`org.vdpactl.packaging.ReleaseFiles`, see docs/install.md).");
        md.line("- Report: `org.vdpactl.bench.report.BenchReport`; where a goal is missed, `scripts/lib/bench-profile.sh` records"
                + " JFR profiles of the gap first and the report prints them.").blank();
        md.line("## How these figures were made").blank();
        String build = machine.getProperty("path.build", "");
        String root = machine.getProperty("path.root", "");
        String shownBuild = !root.isEmpty() && build.startsWith(root + "/") ? build.substring(root.length() + 1) : "the --build-dir given";
        md.line("`scripts/bench" + (commands.containsKey("vm") ? " --vm" : "") + "` ran these, from the repository root, with `BUILD=" + shownBuild
                + "` and `$JAVA_HOME` the JDK above:").blank();
        List<String> lines = new ArrayList<>();
        for (String key : List.of("build", "c.build", "c.ioctl", "jmh.ioctl", "jmh.iotlb", "jmh.netlink", "startup", "vm.c.build", "vm",
                "vm.c", "vm.jmh")) {
            if (commands.containsKey(key)) {
                lines.add(shown(commands.getProperty(key)));
            }
        }
        md.code("sh", lines);
    }

    private void ioctlSection(Markdown md) throws IOException {
        md.line("## 1. ioctl round trip: FIONREAD on a pipe").blank();
        JmhResults jmh = JmhResults.read(results, "jmh-ioctl");
        Optional<String> cRaw = text("c-ioctl.txt");
        if (jmh.isEmpty() || cRaw.isEmpty()) {
            md.line("Not run: " + text("skipped-ioctl.txt").orElse("no results in this run.")).blank();
            return;
        }
        Map<String, Summary> cLoops = CLoopResults.parse(cRaw.get());
        Summary c = cLoops.get("fionread");
        Summary cThreaded = cLoops.get("fionreadThreaded");
        Summary bare = jmh.run("bareFfmWithErrnoCapture").orElseThrow().summary();
        Map<String, String> what = new LinkedHashMap<>();
        what.put("seam", "`PanamaSyscalls.ioctl` through the `Syscalls` interface (what the library does)");
        what.put("bareFfmWithErrnoCapture", "the same exact downcall handle, bare, errno captured");
        what.put("bareFfmAutoArenaCapture", "the bare handle with an errno buffer of an automatic arena (the seam's kind) held in a field");
        what.put("bareFfmThreadLocalCapture", "the bare handle with that buffer looked up per call in a `ThreadLocal`, as the seam does");
        what.put("bareFfmNoCapture", "exact downcall handle without errno capture");
        what.put("bareFfmCritical", "the bare handle made `Linker.Option.critical` (no thread-state transition; not usable in the seam)");
        what.put("generatedInvokerApply", "jextract's variadic invoker `libc_h.ioctl.makeInvoker(C_POINTER).apply(...)` (boxed)");
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<String, String> e : what.entrySet()) {
            Optional<JmhResults.Run> run = jmh.run(e.getKey());
            if (run.isEmpty()) {
                continue;
            }
            Summary s = run.get().summary();
            rows.add(List.of(e.getKey(), e.getValue(), Markdown.triple(s), String.valueOf(s.n()),
                    Markdown.ratio(s.median() / bare.median()), Markdown.ratio(s.median() / c.median()),
                    cThreaded == null ? "n/a" : Markdown.ratio(s.median() / cThreaded.median())));
        }
        rows.add(List.of("C loop", "`ioctl(fd, FIONREAD, &n)` in src/bench/c/ioctl_loop.c, single-threaded process, timed by itself",
                Markdown.triple(c), String.valueOf(c.n()), Markdown.ratio(c.median() / bare.median()), Markdown.ratio(1),
                cThreaded == null ? "n/a" : Markdown.ratio(c.median() / cThreaded.median())));
        if (cThreaded != null) {
            rows.add(List.of("C loop, 2 threads", "the same after the program started an idle second thread (a JVM always has several)",
                    Markdown.triple(cThreaded), String.valueOf(cThreaded.n()), Markdown.ratio(cThreaded.median() / bare.median()),
                    Markdown.ratio(cThreaded.median() / c.median()), Markdown.ratio(1)));
        }
        md.table(List.of("Variant", "What", "ns/op min / median / max", "n", "÷ bare FFM", "÷ C", "÷ C, 2 threads"), rows);
        md.line("Why two C loops: for every fd-based syscall of a process whose fd table is shared by several threads, Linux"
                + " takes and drops a reference on the struct file (`fdget`); a single-threaded process skips that. A JVM is"
                + " never single-threaded, so \"C, 2 threads\" is the like-for-like yardstick for what FFM itself adds, and"
                + " the rest of FFM/C is the kernel charging every multi-threaded caller, QEMU included.").blank();
        Summary seam = jmh.run("seam").orElseThrow().summary();
        double seamRatio = seam.median() / bare.median();
        goal("seam ioctl ≤ " + SEAM_GOAL + "x the bare FFM handle (FIONREAD, pipe)",
                Markdown.ratio(seamRatio) + " (medians " + Markdown.num(seam.median()) + " vs " + Markdown.num(bare.median())
                        + " ns; mins " + Markdown.ratio(seam.min() / bare.min()) + ")", seamRatio <= SEAM_GOAL);
        goal("FFM/C on FIONREAD (reported)", "seam " + Markdown.ratio(seam.median() / c.median()) + ", bare FFM "
                + Markdown.ratio(bare.median() / c.median()) + " (C " + Markdown.num(c.median()) + " ns)"
                + (cThreaded == null ? "" : "; against C with 2 threads (" + Markdown.num(cThreaded.median()) + " ns): seam "
                        + Markdown.ratio(seam.median() / cThreaded.median()) + ", bare FFM " + Markdown.ratio(bare.median() / cThreaded.median())),
                null);
        jmh.run("generatedInvokerApply").ifPresent(g -> md.line("The generated variadic invoker costs "
                + Markdown.ratio(g.summary().median() / bare.median()) + " the exact handle: `apply` spreads a boxed `Object[]`"
                + " through `asSpreader`, which is why the seam builds its own exact handle on `libc_h.ioctl.address()`"
                + " and calls it with `invokeExact`.").blank());
        jmh.run("bareFfmNoCapture").ifPresent(n -> md.line("Errno capture: " + difference(bare.median() - n.summary().median())
                + " per call (median with minus median without); the seam needs it to name the kernel's error.").blank());
        jmh.run("bareFfmCritical").ifPresent(t -> md.line("The thread-state transition (critical minus normal handle): "
                + difference(bare.median() - t.summary().median()) + ".").blank());
        jmh.run("bareFfmThreadLocalCapture").ifPresent(t -> md.line("What the seam adds, factor by factor (medians over the bare"
                + " handle): an automatic arena's errno buffer " + jmh.run("bareFfmAutoArenaCapture").map(a ->
                        difference(a.summary().median() - bare.median())).orElse("n/a") + "; that buffer looked up in a `ThreadLocal` "
                + difference(t.summary().median() - bare.median()) + "; the seam as a whole (interface call, result check) "
                + difference(seam.median() - bare.median()) + ". Differences of a few ns are within the spread shown in the table.").blank());
    }

    /** A difference of two medians in ns, or "none measurable" when it is below the spread. */
    private static String difference(double ns) {
        return ns <= 0 ? "none measurable (" + Markdown.num(ns) + " ns)" : Markdown.num(ns) + " ns";
    }

    private void iotlbSection(Markdown md) throws IOException {
        md.line("## 2. IOTLB: planning, encoding and writing vhost_msg_v2 messages").blank();
        JmhResults jmh = JmhResults.read(results, "jmh-iotlb");
        if (jmh.isEmpty()) {
            md.line("Not run: " + text("skipped-iotlb.txt").orElse("no results in this run.")).blank();
            notRun("IOTLB plan + encode + write into the fake ≥ 2M messages/s", "not run: see section 2");
            return;
        }
        md.line("One operation maps 1024 one-page regions of a memfd (one batch of UPDATEs) and unmaps them again (one batch"
                + " of INVALIDATEs): 2052 messages with the BATCH_BEGIN/END pairs, on vdpasim_net of the fake kernel"
                + " (`/dev/vhost-vdpa-0`, IOTLB_MSG_V2 and BATCH acked). Throughput is per message; allocation is JMH's"
                + " `gc.alloc.rate.norm` divided by the messages of an operation.").blank();
        List<List<String>> rows = new ArrayList<>();
        for (JmhResults.Run r : jmh.runs()) {
            Summary s = r.summary();
            String alloc = r.secondary("gc.alloc.rate.norm").map(a -> Markdown.num(a.median()) + " B").orElse("n/a");
            rows.add(List.of(r.label(), IOTLB_BENCHMARKS.getOrDefault(r.method(), ""), Markdown.millionsPerSecond(s.min()) + " / "
                    + Markdown.millionsPerSecond(s.median()) + " / " + Markdown.millionsPerSecond(s.max()), String.valueOf(s.n()), alloc));
        }
        Map<String, Summary> cLoops = text("c-ioctl.txt").map(CLoopResults::parse).orElse(Map.of());
        for (String[] c : new String[][] {{"iotlbDevNull", "C: the same messages, each filled in and written to `/dev/null`"
                + " (src/bench/c/ioctl_loop.c), single-threaded"}, {"iotlbDevNullThreaded", "the same with a second thread"}}) {
            Summary ns = cLoops.get(c[0]);
            if (ns != null) {
                // ns per message to messages per second: the slowest repetition is the smallest rate
                rows.add(List.of(c[0], c[1], Markdown.millionsPerSecond(1e9 / ns.max()) + " / " + Markdown.millionsPerSecond(1e9 / ns.median())
                        + " / " + Markdown.millionsPerSecond(1e9 / ns.min()), String.valueOf(ns.n()), "n/a"));
            }
        }
        md.table(List.of("Benchmark", "What", "messages/s min / median / max", "n", "allocated per message (median)"), rows);
        jmh.run("encodeWriteDevNull").ifPresent(r -> {
            Summary c = cLoops.get("iotlbDevNull");
            Summary ct = cLoops.get("iotlbDevNullThreaded");
            if (c != null && ct != null) {
                double javaNs = 1e9 / r.summary().median();
                md.line("The `/dev/null` rows isolate the per-message cost of the hot path on real hardware: "
                        + Markdown.num(javaNs) + " ns from Java against " + Markdown.num(c.median()) + " ns from a single-threaded C"
                        + " program and " + Markdown.num(ct.median()) + " ns from the same program with a second thread. Of the "
                        + Markdown.num(javaNs - c.median()) + " ns, " + Markdown.num(ct.median() - c.median()) + " are the kernel's"
                        + " charge on any multi-threaded writer (see section 1) and " + Markdown.num(javaNs - ct.median())
                        + " the downcall and the Java side of `apply`" + jmh.run("encodeOnly").map(e -> ", of which encoding alone takes "
                                + Markdown.num(1e9 / e.summary().median()) + " ns (`encodeOnly`)").orElse("") + ".").blank();
                goal("IOTLB hot path Java/C on this host (to `/dev/null`, reported)", Markdown.ratio(javaNs / c.median())
                        + " (" + Markdown.num(javaNs) + " vs " + Markdown.num(c.median()) + " ns per message); against C with 2 threads "
                        + Markdown.ratio(javaNs / ct.median()), null);
            }
        });
        jmh.run("planEncodeWrite").ifPresent(r -> goal("IOTLB plan + encode + write into the fake ≥ 2M messages/s",
                Markdown.millionsPerSecond(r.summary().median()) + " median (min " + Markdown.millionsPerSecond(r.summary().min()) + ")",
                r.summary().median() >= IOTLB_FAKE_GOAL));
        jmh.run("encodeWriteDevNull").ifPresent(r -> {
            double b = r.secondary("gc.alloc.rate.norm").map(Summary::median).orElse(Double.NaN);
            goal("no allocation per message on the hot path (encode + write(2), one reused native buffer)",
                    Markdown.num(b) + " B/message (`encodeWriteDevNull`, -prof gc)", b < NO_ALLOCATION);
        });
    }

    private void netlinkSection(Markdown md) throws IOException {
        md.line("## 3. netlink: vdpa messages and a 1000-device dump through the fake's socket").blank();
        JmhResults jmh = JmhResults.read(results, "jmh-netlink");
        if (jmh.isEmpty()) {
            md.line("Not run: " + text("skipped-netlink.txt").orElse("no results in this run.")).blank();
            return;
        }
        List<List<String>> rows = new ArrayList<>();
        for (JmhResults.Run r : jmh.runs()) {
            Summary s = r.summary();
            String alloc = r.secondary("gc.alloc.rate.norm").map(a -> Markdown.num(a.median()) + " B").orElse("n/a");
            rows.add(List.of(r.label(), NETLINK_BENCHMARKS.getOrDefault(r.method(), ""), Markdown.triple(s) + " " + r.unit(),
                    String.valueOf(s.n()), alloc));
        }
        md.table(List.of("Benchmark", "What", "min / median / max", "n", "allocated per op (median)"), rows);
        jmh.run("dump1000Devices").ifPresent(r -> goal("dump of 1000 devices from the fake through the socket (reported)",
                Markdown.num(r.summary().median()) + " " + r.unit() + " median, "
                        + Markdown.num(r.summary().median() * 1000 / 1000) + " ns per device (µs per dump × 1000 ns/µs ÷ 1000 devices)", null));
    }

    private void startupSection(Markdown md) throws IOException {
        md.line("## 4. CLI start-up").blank();
        Path file = results.resolve("startup.json");
        if (!Files.exists(file)) {
            md.line("Not run: " + text("skipped-startup.txt").orElse("no results in this run.")).blank();
            return;
        }
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        text("startup-notes.md").ifPresent(n -> md.line(n).blank());
        Map<String, Summary> byName = new LinkedHashMap<>();
        Map<String, String> cmd = new LinkedHashMap<>();
        root.get("variants").fields().forEachRemaining(e -> {
            List<Double> ms = new ArrayList<>();
            e.getValue().get("millis").forEach(x -> ms.add(x.asDouble()));
            byName.put(e.getKey(), Summary.of(ms));
            cmd.put(e.getKey(), shown(e.getValue().get("command").asText()));
        });
        Summary base = byName.get("default");
        List<List<String>> rows = new ArrayList<>();
        Properties classes = properties(results.resolve("startup-classes.properties"));
        for (Map.Entry<String, Summary> e : byName.entrySet()) {
            Summary s = e.getValue();
            rows.add(List.of(e.getKey(), Markdown.triple(s), String.valueOf(s.n()), Markdown.ratio(s.median() / base.median()),
                    Markdown.percent(1 - s.median() / base.median()), classes.getProperty(e.getKey(), "?")));
        }
        md.table(List.of("Variant", "wall ms min / median / max", "runs", "÷ default", "cut", "classes not from an archive"), rows);
        // each variant against the same command line without any start-up archive (its "-no-cds" twin)
        for (Map.Entry<String, Summary> e : byName.entrySet()) {
            Summary without = byName.get(e.getKey() + "-no-cds");
            if (without != null) {
                Summary with = e.getValue();
                String measured = Markdown.ratio(with.median() / without.median()) + " (medians " + Markdown.num(with.median())
                        + " vs " + Markdown.num(without.median()) + " ms, " + with.n() + " and " + without.n() + " runs, interleaved)";
                md.line("- **" + e.getKey() + "** ÷ **" + e.getKey() + "-no-cds**: " + measured);
                goal("`" + e.getKey() + "` with its start-up archive ÷ without", measured, null);
            }
        }
        md.blank();
        md.line("Variants (all with the launchers' flags `-XX:TieredStopAtLevel=1 -XX:+UseSerialGC`, run interleaved round by round):").blank();
        STARTUP_VARIANTS.forEach((k, v) -> {
            if (byName.containsKey(k)) {
                md.line("- **" + k + "**: " + v);
            }
        });
        md.blank();
        List<String> lines = new ArrayList<>();
        cmd.forEach((k, v) -> lines.add(k + ": " + v));
        md.code("", lines);
        Summary aot = byName.get("build-archive");
        if (aot != null) {
            double cut = 1 - aot.median() / base.median();
            goal("start-up archive cuts `" + text("startup-measured.txt").orElse("vdpactl") + "` by ≥ 40 %", Markdown.percent(cut)
                    + " (median " + Markdown.num(base.median()) + " → " + Markdown.num(aot.median()) + " ms, the build's archive)", cut >= STARTUP_GOAL);
        }
    }

    private void vmSection(Markdown md) throws IOException {
        md.line("## 5. VM lane: the real vhost-vdpa device (vdpa_sim in QEMU)").blank();
        JmhResults jmh = JmhResults.read(results, "vm-jmh");
        Optional<String> c = text("vm-c.txt");
        if (jmh.isEmpty() || c.isEmpty()) {
            String why = text("skipped-vm.txt").orElse("no results in this run.");
            md.line("**Skipped:** " + why).blank();
            notRun("IOTLB into the real device ≤ 1.1x a C writer (vdpa_sim in the VM lane)", "skipped: " + why);
            notRun("FFM/C on VHOST_GET_FEATURES / GET_VRING_BASE (vdpa_sim in the VM lane, reported)", "skipped: see above");
            return;
        }
        text("vm-notes.md").ifPresent(n -> md.line(n).blank());
        Map<String, Summary> cRuns = CLoopResults.parse(c.get());
        List<JmhResults.Run> runs = jmh.runs().stream().sorted(java.util.Comparator.comparing(JmhResults.Run::label)).toList();
        List<List<String>> rows = new ArrayList<>();
        for (JmhResults.Run r : runs) {
            Summary s = r.summary();
            Summary cs = cRuns.get(r.method());
            Summary ct = cRuns.get(r.method() + "Threaded");
            rows.add(List.of("`" + r.method() + "`", Markdown.triple(s), cs == null ? "n/a" : Markdown.triple(cs),
                    ct == null ? "n/a" : Markdown.triple(ct), cs == null ? "n/a" : Markdown.ratio(s.median() / cs.median()),
                    ct == null ? "n/a" : Markdown.ratio(s.median() / ct.median())));
        }
        md.table(List.of("Operation (ns per call / per message)", "Java (seam) min / median / max", "C min / median / max",
                "C, 2 threads", "Java ÷ C", "Java ÷ C, 2 threads"), rows);
        for (JmhResults.Run r : runs) {
            Summary cs = cRuns.get(r.method());
            if (cs == null) {
                continue;
            }
            Summary ct = cRuns.get(r.method() + "Threaded");
            double ratio = r.summary().median() / cs.median();
            String measured = Markdown.ratio(ratio) + " medians (" + Markdown.ratio(r.summary().min() / cs.min()) + " minimums)"
                    + (ct == null ? "" : "; against C with 2 threads " + Markdown.ratio(r.summary().median() / ct.median()));
            if (r.method().startsWith("iotlb")) {
                goal("IOTLB into the real device ≤ 1.1x a C writer (`" + r.method() + "`, vdpa_sim in the VM lane, TCG)", measured,
                        ratio <= IOTLB_VM_GOAL);
            } else {
                goal("FFM/C on `" + r.method() + "` (vdpa_sim in the VM lane, TCG, reported)", measured, null);
            }
        }
    }

    private void profilesSection(Markdown md) throws IOException {
        List<Path> profiles;
        try (var s = Files.list(results)) {
            profiles = s.filter(p -> p.getFileName().toString().startsWith("profile-") && p.toString().endsWith(".md")).sorted().toList();
        }
        if (profiles.isEmpty()) {
            return;
        }
        md.line("## Profiles of the gaps").blank();
        for (Path p : profiles) {
            md.line(Files.readString(p, StandardCharsets.UTF_8).strip()).blank();
        }
    }
}
