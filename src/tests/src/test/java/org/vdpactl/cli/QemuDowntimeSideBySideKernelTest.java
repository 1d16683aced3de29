package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.lane.GuestClock;
import org.vdpactl.lane.qemu.QemuClient;
import org.vdpactl.lane.qemu.QemuUnderTest;
import org.vdpactl.lane.qemu.SimulatorDevice;
import org.vdpactl.lane.qemu.VirtioPciGuestDriver;

/**
 * QEMU's device downtime and the rehearsal's, side by side in one lane run, on the same vdpa_sim
 * net devices (issue 34): for N = 1, 2, 4, 8, 16 vhost-vdpa netdevs on one VM, each iteration runs
 * <ol>
 *   <li>QEMU (the newest the lane has: 10.0 when scripts/vm-lane set it up) with N netdevs, its
 *       guest driver played over qtest to DRIVER_OK on every device, then QMP {@code stop} and
 *       {@code cont}: QEMU's downtime is taken from its own {@code vhost_vdpa_*} trace points
 *       (wall-clock microseconds, no strace): from the first call {@code stop} makes to its last
 *       call, plus from the first call {@code cont} makes to its last (the idle time between the
 *       two QMP commands is the test's, not QEMU's). One warm-up cycle, then several measured
 *       cycles per QEMU start (a start costs seconds in the TCG guest, a cycle tens of
 *       milliseconds; under TCG single windows scatter several-fold, and one sample per start left
 *       the medians jumping between neighbouring N). As many stop/cont cycles with the trace
 *       points switched off (QMP trace-event-set-state) measure the tracer's cost as the
 *       difference of the QMP round trips;</li>
 *   <li>a migration of that QEMU to a file, and (in the first iteration of each N: a QEMU start
 *       costs minutes in the TCG guest) one of a second QEMU whose netdevs use {@code x-svq=on}:
 *       QEMU's own reported downtime ({@code query-migrate}), or the reason QEMU refused;</li>
 *   <li>after QEMU has quit (its nodes closed), {@code vdpactl rehearse --backend kernel --window
 *       in-place} on the same N devices with --strategy serial, parallel, pipelined and svq, one
 *       warm-up window and as many measured windows as QEMU had cycles, each (the CLI's own entry
 *       point in this JVM: a JVM start per command costs minutes under TCG). Each window's calls
 *       and the time spent inside them are recorded beside its downtime, as QEMU's trace points
 *       per cycle are, so a ratio above 1 can be read as "more calls" or "dearer calls".</li>
 * </ol>
 * Interleaved, so that the guest's speed drifts equally for both. Every run goes into the lane
 * record qemu-downtime.json (scripts/lane-report renders the table and the goals from it). The
 * test asserts that every run completed and produced a downtime; it never asserts a time.
 */
@Tag("kernel")
class QemuDowntimeSideBySideKernelTest {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** "pid@seconds.micros:vhost_vdpa_event args", QEMU's log trace backend with -msg timestamp=on. */
    private static final Pattern TRACE = Pattern.compile("^\\d+@(\\d+)\\.(\\d{6}):(vhost_vdpa_\\w+)");
    private static final List<String> STRATEGIES = List.of("serial", "parallel", "pipelined", "svq");

    @TempDir
    Path dir;

    private static int[] counts() {
        String v = System.getenv().getOrDefault("VDPACTL_DOWNTIME_N", "1,2,4,8,16");
        return Arrays.stream(v.split(",")).mapToInt(s -> Integer.parseInt(s.strip())).toArray();
    }

    private static int iterations() {
        return Integer.parseInt(System.getenv().getOrDefault("VDPACTL_DOWNTIME_ITERATIONS", "5"));
    }

    /** Measured stop/cont cycles per QEMU start, and measured windows per rehearsal command. */
    private static int cycles() {
        return Integer.parseInt(System.getenv().getOrDefault("VDPACTL_DOWNTIME_CYCLES", "5"));
    }

    /**
     * Warm-up cycles per QEMU start and warm-up windows per rehearsal command, before the measured ones:
     * on one guest vCPU the JVM's compiler threads, busy while the rehearsal's code is still new, take the
     * CPU from the rehearsal's thread a scheduler tick at a time (the 16:19 and 16:25 series: stalls of
     * about 4 or 8 ms landing in any call of a window that otherwise took 2 ms).
     */
    private static int warmups() {
        return Integer.parseInt(System.getenv().getOrDefault("VDPACTL_DOWNTIME_WARMUPS", "3"));
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
    }

    /** One trace point: wall-clock microseconds and name. */
    record TracePoint(long micros, String name) {
    }

    static List<TracePoint> tracePoints(Path stderr) throws IOException {
        List<TracePoint> out = new ArrayList<>();
        for (String line : Files.readAllLines(stderr)) {
            Matcher m = TRACE.matcher(line);
            if (m.find()) {
                out.add(new TracePoint(Long.parseLong(m.group(1)) * 1_000_000L + Long.parseLong(m.group(2)), m.group(3)));
            }
        }
        return out;
    }

    /** Microseconds from the first to the last trace point within [from, to], or -1 without any. */
    static long span(List<TracePoint> points, long from, long to) {
        long first = -1;
        long last = -1;
        for (TracePoint p : points) {
            if (p.micros() >= from && p.micros() <= to) {
                first = first < 0 ? p.micros() : first;
                last = p.micros();
            }
        }
        return first < 0 ? -1 : last - first;
    }

    /**
     * Within [from, to]: the time from each trace point to the next, summed by the first one's name. A
     * trace point fires as its call begins, so the gap is that call plus QEMU's work up to the next call
     * (and the tracer's own write): where QEMU's downtime goes, call by call.
     */
    static Map<String, Long> gapsByName(List<TracePoint> points, long from, long to) {
        Map<String, Long> out = new TreeMap<>();
        TracePoint previous = null;
        for (TracePoint p : points) {
            if (p.micros() < from || p.micros() > to) {
                continue;
            }
            if (previous != null) {
                out.merge(previous.name(), p.micros() - previous.micros(), Long::sum);
            }
            previous = p;
        }
        return out;
    }

    private static long count(List<TracePoint> points, long from, long to, String name) {
        return points.stream().filter(p -> p.micros() >= from && p.micros() <= to && p.name().equals(name)).count();
    }

    private QemuUnderTest startDriven(QemuClient client, String name, List<SimulatorDevice> devs, boolean svq,
            QemuUnderTest.Tracing tracing) throws Exception {
        List<String> netdevs = new ArrayList<>();
        for (int i = 0; i < devs.size(); i++) {
            netdevs.add(QemuUnderTest.vhostVdpaNetdev(devs.get(i).node(), i, svq));
        }
        QemuUnderTest q = QemuUnderTest.start(client, dir, name, netdevs, tracing);
        try {
            for (int i = 0; i < devs.size(); i++) {
                VirtioPciGuestDriver guest = new VirtioPciGuestDriver(q.qtest(), i);
                guest.find(0x1041);
                guest.map();
                guest.negotiate();
                guest.driverOk();
            }
            q.qmp().execute("cont", null); // virtio-net starts vhost only while the VM runs
            return q;
        } catch (Exception e) {
            q.close();
            throw e;
        }
    }

    /** QMP stop then cont; the four instants around the two commands, in wall-clock microseconds. */
    private static long[] stopCont(QemuUnderTest q) throws IOException {
        long t0 = micros(Instant.now());
        q.qmp().execute("stop", null);
        long t1 = micros(Instant.now());
        q.qmp().execute("cont", null);
        long t2 = micros(Instant.now());
        return new long[] {t0, t1, t1, t2};
    }

    /** A migration to a file; QEMU's reported downtime (ms) or its refusal, into run. */
    private void migrate(QemuUnderTest q, String file, ObjectNode run) throws Exception {
        try {
            q.qmp().execute("migrate", Map.of("uri", "file:" + dir.resolve(file)));
        } catch (IOException refused) {
            run.put("refused", refused.getMessage());
            return;
        }
        String status = "";
        JsonNode info = null;
        for (int i = 0; i < 1200 && !status.equals("completed") && !status.equals("failed"); i++) {
            Thread.sleep(50);
            info = q.qmp().execute("query-migrate", null);
            status = info.path("status").asText();
        }
        run.put("status", status);
        if (status.equals("completed")) {
            run.put("downtimeMs", info.path("downtime").asDouble());
            run.put("totalTimeMs", info.path("total-time").asDouble());
        } else {
            run.put("refused", info == null ? "no answer" : info.path("error-desc").asText(status));
        }
        Files.deleteIfExists(dir.resolve(file));
    }

    @Test
    void qemuAndTheRehearsalOnTheSameDevicesInterleaved() throws Exception {
        List<QemuClient> clients = QemuClient.all();
        QemuClient client = clients.get(clients.size() - 1); // the newest: the peer when the lane has it
        ObjectNode record = JSON.createObjectNode();
        record.put("schema", "vdpactl-qemu-downtime/1");
        record.put("qemu", client.version()).put("qemuSeries", client.series());
        record.put("kernel", Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip());
        record.put("date", Instant.now().toString());
        record.put("guestCpus", Runtime.getRuntime().availableProcessors());
        // the JIT and collector the rehearsal ran with (scripts/vm-lane gives the launcher's: C1 only, serial GC)
        record.put("jvmOptions", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-XX:")).toList()));
        // the figures are only as fine as the guest's clock (GuestClockKernelTest fails the lane on a coarse one),
        // and the vCPUs the kernel can have bound what the parallel strategies can gain
        record.set("guestClock", JSON.valueToTree(GuestClock.measure()));
        record.put("tracer", "QEMU's own vhost_vdpa_* trace points (-trace, log backend, -msg timestamp=on: wall-clock"
                + " microseconds) to its stderr file; no strace. Tracer cost: the same stop/cont with the trace points"
                + " switched off (QMP trace-event-set-state), the difference of the QMP round trips");
        record.put("qemuDowntime", "first to last trace point of stop, plus first to last trace point of cont");
        int iterations = iterations();
        int cycles = cycles();
        int warmups = warmups();
        record.put("rehearsal", "vdpactl rehearse --backend kernel --window in-place --iterations " + (warmups + cycles)
                + " --memory 64M --regions 64M, the CLI's entry point in the test's JVM; downtime_ms of each iteration"
                + " but the first " + warmups + " (warm-ups, recorded and marked); calls and inCallMs: the window's calls"
                + " in downtime phases and the time inside them; commandJitMs and commandGcMs: the JVM's compilation and"
                + " collection time during the whole command (CompilationMXBean, GarbageCollectorMXBeans); before each"
                + " measured command and each QEMU's cycles the test waits for its JVM's other threads to go quiet"
                + " (jvmQuietWaitMs), and at each N's first iteration two unmeasured commands per strategy run first");
        ArrayNode runs = record.putArray("runs");
        record.put("iterations", iterations);
        record.put("cycles", cycles);
        record.put("warmups", warmups);
        record.put("warmup", "QEMU: " + warmups + " stop/cont cycles after each start; the rehearsal: its first " + warmups
                + " windows per command; both recorded with \"warmup\": true and left out of the medians");
        ArrayNode ns = record.putArray("n");
        Path out = Path.of(System.getenv().getOrDefault("VDPACTL_QEMU_TRACE_OUT", "target/qemu-trace.json"))
                .toAbsolutePath().resolveSibling("qemu-downtime.json");
        Files.createDirectories(out.getParent());
        List<String> problems = new ArrayList<>();
        try {
            for (int n : counts()) {
                List<SimulatorDevice> devs = new ArrayList<>();
                try {
                    for (int i = 0; i < n; i++) {
                        devs.add(SimulatorDevice.add("vdpa-dt" + i, String.format("02:00:00:00:02:%02x", i)));
                    }
                } catch (IOException e) {
                    // what limits N: say it in the record and stop at the last N that worked
                    record.put("limit", "N=" + n + ": " + e.getMessage());
                    for (SimulatorDevice d : devs) {
                        d.close();
                    }
                    break;
                }
                ns.add(n);
                try {
                    for (int it = 0; it < iterations; it++) {
                        qemuRuns(client, devs, n, it, warmups, cycles, runs, problems);
                        rehearsals(devs, n, it, warmups, cycles, runs, problems);
                        Files.writeString(out, JSON.writeValueAsString(record)); // a failure later keeps what ran
                    }
                } finally {
                    for (SimulatorDevice d : devs) {
                        d.close();
                    }
                }
            }
        } finally {
            Files.writeString(out, JSON.writeValueAsString(record));
        }
        assertFalse(ns.isEmpty(), "no N could be set up: " + record.path("limit").asText());
        assertTrue(problems.isEmpty(), "runs without a downtime: " + problems);
    }

    private void qemuRuns(QemuClient client, List<SimulatorDevice> devs, int n, int it, int warmups, int cycles,
            ArrayNode runs, List<String> problems) throws Exception {
        ObjectNode migration = runs.addObject().put("n", n).put("iteration", it).put("who", "qemu migrate");
        List<long[]> traced = new ArrayList<>();
        List<long[]> untraced = new ArrayList<>();
        try (QemuUnderTest q = startDriven(client, "dt" + n + "-" + it, devs, false, QemuUnderTest.Tracing.TRACE_POINTS)) {
            migration.put("jvmQuietWaitMs", awaitQuietJvm()); // the test's JVM shares the vCPU with QEMU too
            for (int c = 0; c < warmups + cycles; c++) { // the first warmups cycles: the warm-up
                traced.add(stopCont(q));
            }
            q.qmp().execute("trace-event-set-state", Map.of("name", "vhost_vdpa_*", "enable", false));
            for (int c = 0; c < warmups + cycles; c++) {
                untraced.add(stopCont(q));
            }
            q.qmp().execute("trace-event-set-state", Map.of("name", "vhost_vdpa_*", "enable", true));
            migrate(q, "dt.mig", migration);
        } // QEMU quit: its trace file is complete and its nodes are closed
        List<TracePoint> points = tracePoints(dir.resolve("dt" + n + "-" + it + ".stderr"));
        for (int c = 0; c < warmups + cycles; c++) {
            ObjectNode run = runs.addObject().put("n", n).put("iteration", it).put("cycle", c - warmups)
                    .put("who", "qemu stop/cont");
            if (c < warmups) {
                run.put("warmup", true);
            }
            if (!stopContRun(points, traced.get(c), untraced.get(c), run)) {
                problems.add("N=" + n + " #" + it + " cycle " + c + ": QEMU's stop or cont left no vhost_vdpa trace point");
            }
        }
        if (it > 0) {
            return; // a QEMU start costs seconds in the TCG guest: the x-svq migration once per N
        }
        ObjectNode svq = runs.addObject().put("n", n).put("iteration", it).put("who", "qemu migrate x-svq");
        try (QemuUnderTest q = startDriven(client, "dts" + n + "-" + it, devs, true, QemuUnderTest.Tracing.NONE)) {
            migrate(q, "dts.mig", svq);
        }
    }

    /** One stop/cont cycle's figures from the trace points within its instants; false when it left none. */
    static boolean stopContRun(List<TracePoint> points, long[] traced, long[] untraced, ObjectNode run) {
        long stop = span(points, traced[0], traced[1]);
        long cont = span(points, traced[2], traced[3]);
        run.put("stopMs", stop / 1e3).put("contMs", cont / 1e3);
        run.put("suspends", count(points, traced[0], traced[1], "vhost_vdpa_suspend"));
        run.put("resets", count(points, traced[0], traced[3], "vhost_vdpa_reset_device"));
        run.put("tracePoints", points.stream().filter(p -> p.micros() >= traced[0] && p.micros() <= traced[3]).count());
        Map<String, Long> gaps = gapsByName(points, traced[0], traced[1]); // the gap after each trace point, by name
        gapsByName(points, traced[2], traced[3]).forEach((name, us) -> gaps.merge(name, us, Long::sum));
        putDearCalls(run, gaps, 1_000L);
        run.put("tracedRoundTripMs", (traced[1] - traced[0] + traced[3] - traced[2]) / 1e3);
        run.put("untracedRoundTripMs", (untraced[1] - untraced[0] + untraced[3] - untraced[2]) / 1e3);
        if (stop < 0 || cont < 0) {
            return false;
        }
        run.put("downtimeMs", (stop + cont) / 1e3);
        return true;
    }

    /**
     * Waits until this JVM's other threads (its compiler and collector threads above all: the test's own
     * thread only sleeps here) have used at most one scheduler tick of CPU in a quarter of a second, so that
     * neither side's measured windows share the one guest vCPU with a compilation left over from before. At
     * most 30 s; returns the milliseconds waited, negated when it gave up. CPU time is counted per tick in
     * the lane kernel (4 ms at HZ 250), hence the threshold.
     */
    static long awaitQuietJvm() throws InterruptedException {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = System.nanoTime();
        while (System.nanoTime() - start < 30_000_000_000L) {
            long process = os.getProcessCpuTime();
            long own = threads.getCurrentThreadCpuTime();
            Thread.sleep(250);
            long others = os.getProcessCpuTime() - process - (threads.getCurrentThreadCpuTime() - own);
            if (others <= 4_000_000L) {
                return (System.nanoTime() - start) / 1_000_000L;
            }
        }
        return -(System.nanoTime() - start) / 1_000_000L;
    }

    /**
     * msByCall: the calls that took 0.1 ms or more in this window, in milliseconds to the microsecond (the
     * cheaper ones left out: a thousand runs of up to 60 call names each made the record megabytes long; the
     * report counts an absent call as 0). {@code perMs}: the map's units per millisecond.
     */
    static void putDearCalls(ObjectNode run, Map<String, Long> byCall, long perMs) {
        ObjectNode msByCall = run.putObject("msByCall");
        byCall.forEach((call, v) -> {
            if (v * 10 >= perMs) {
                msByCall.put(call, Math.round(v * 1000.0 / perMs) / 1000.0);
            }
        });
    }

    /** The JVM's total compilation and garbage-collection time so far, in milliseconds. */
    private static long[] jitAndGcMillis() {
        long gc = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            gc += Math.max(0, b.getCollectionTime());
        }
        return new long[] {ManagementFactory.getCompilationMXBean().getTotalCompilationTime(), gc};
    }

    private static void rehearsals(List<SimulatorDevice> devs, int n, int it, int warmups, int cycles, ArrayNode runs,
            List<String> problems) throws Exception {
        for (String strategy : STRATEGIES) {
            List<String> args = new ArrayList<>(List.of("--backend", "kernel", "--json", "rehearse"));
            devs.forEach(d -> args.add(d.name()));
            args.addAll(List.of("--strategy", strategy, "--window", "in-place", "--iterations", String.valueOf(warmups + cycles),
                    "--memory", "64M", "--regions", "64M"));
            // a new N: its code paths (its thread count) compiled before anything is measured. Twice the measured
            // command, whole (its windows and its JSON): on 6.1, whose series is N = 1 alone, one warm-up of three
            // windows left 0.5-1.2 s of compilation in each of the next two commands per strategy (2026-12-06,
            // 10 iterations: serial 20-42 ms there, 10-12 ms from the third on, QEMU 13-15 ms throughout)
            for (int w = 0; it == 0 && w < 2; w++) {
                CliRun warm = CliRun.of(args.toArray(String[]::new));
                if (warm.exitCode() != 0) {
                    problems.add("N=" + n + " warm-up " + strategy + ": exit " + warm.exitCode() + " " + warm.err().strip());
                }
            }
            long quietWait = awaitQuietJvm();
            long[] before = jitAndGcMillis();
            CliRun r = CliRun.of(args.toArray(String[]::new));
            long[] after = jitAndGcMillis();
            if (r.exitCode() != 0) {
                runs.addObject().put("n", n).put("iteration", it).put("who", strategy).put("exit", r.exitCode())
                        .put("error", r.err().strip());
                problems.add("N=" + n + " #" + it + " " + strategy + ": exit " + r.exitCode() + " " + r.err().strip());
                continue;
            }
            JsonNode doc = JSON.readTree(r.out());
            assertEquals("completed", doc.path("outcome").asText(), r.out());
            for (JsonNode window : doc.path("iterations")) {
                int index = window.path("index").asInt();
                ObjectNode run = runs.addObject().put("n", n).put("iteration", it).put("cycle", index - warmups)
                        .put("who", strategy).put("exit", 0).put("commandJitMs", after[0] - before[0])
                        .put("commandGcMs", after[1] - before[1]).put("jvmQuietWaitMs", quietWait);
                if (index < warmups) {
                    run.put("warmup", true);
                }
                windowRun(window, run);
            }
        }
    }

    /** A rehearsal window's downtime, and its calls in downtime phases with the time spent inside them. */
    static void windowRun(JsonNode window, ObjectNode run) {
        run.put("downtimeMs", window.path("downtime_ms").asDouble());
        Set<String> downtimePhases = new HashSet<>();
        for (JsonNode phase : window.path("phases")) {
            if (phase.path("in_window").asBoolean()) { // RehearsalJson: true for a phase counted as downtime
                downtimePhases.add(phase.path("phase").asText());
            }
        }
        long calls = 0;
        long inCallNs = 0;
        Map<String, Long> byCall = new TreeMap<>();
        for (JsonNode span : window.path("spans")) {
            if (downtimePhases.contains(span.path("phase").asText())) {
                calls++;
                inCallNs += span.path("duration_ns").asLong();
                byCall.merge(span.path("call").asText(), span.path("duration_ns").asLong(), Long::sum);
            }
        }
        run.put("calls", calls).put("inCallMs", inCallNs / 1e6);
        if (run.path("who").asText().equals("serial")) { // the call-by-call table compares serial with QEMU
            putDearCalls(run, byCall, 1_000_000L);
        }
    }
}
