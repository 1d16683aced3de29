package org.vdpactl.lane.qemu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.orchestra.Phase;
import org.vdpactl.orchestra.PhaseSummary;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Strategy;
import org.vdpactl.sys.PanamaSyscalls;
import org.vdpactl.time.RealClock;
import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.VhostIoctl;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * QEMU as a real vhost-vdpa client of vdpa_sim in the lane guest, once per QEMU the lane has (the host's
 * Debian 12 QEMU 7.2 and bookworm-backports' QEMU 10.0: {@link QemuClient}): the test plays the guest's
 * virtio-net driver over qtest up to DRIVER_OK, lets QEMU start its vhost-vdpa device, stops and
 * restarts it through QMP (stop/cont) under strace, and compares QEMU's calls on the node, phase by
 * phase, with what vdpactl's serial rehearsal issues on a device of the same kind. A difference that
 * {@link IntendedDifferences} does not explain for that QEMU's version fails the test. The lane record (JSON) it writes feeds
 * docs/qemu-trace.md (scripts/lane-report).
 */
@Tag("kernel")
class QemuTraceKernelTest {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @TempDir
    Path dir;

    /** The host's QEMU 7.2 and the lane's second QEMU (10.0) when scripts/vm-lane set it up. */
    static List<QemuClient> clients() {
        return QemuClient.all();
    }

    /** Where this QEMU's record goes: VDPACTL_QEMU_TRACE_OUT names the host QEMU's; a second QEMU's sits beside it. */
    private static Path recordFile(QemuClient client, String base) {
        String out = System.getenv().getOrDefault("VDPACTL_QEMU_TRACE_OUT", "target/qemu-trace.json");
        return Path.of(out).toAbsolutePath().resolveSibling(client.recordName(base));
    }

    /** The lane's vdpa0, on which the rehearsal side of every comparison runs. */
    private static final DeviceTarget VDPA0 = new DeviceTarget("vdpa0", "/dev/vhost-vdpa-0");

    /**
     * What the compared device offers that an intended difference may depend on, asked of the device
     * itself (6.1's vdpa_sim has no ENABLE_AFTER_DRIVER_OK, so the rehearsal enables before DRIVER_OK there).
     */
    static Set<IntendedDifferences.DeviceFact> deviceFacts() {
        try (VhostVdpaDevice dev = VhostVdpaDevice.open(new PanamaSyscalls(), VDPA0.path())) {
            return dev.getBackendFeatures().has(BackendFeature.ENABLE_AFTER_DRIVER_OK) ? Set.of()
                    : Set.of(IntendedDifferences.DeviceFact.NO_ENABLE_AFTER_DRIVER_OK);
        }
    }

    private static long now() {
        return LocalTime.now().toNanoOfDay();
    }

    private static List<NodeCall> between(List<NodeCall> calls, long from, long to) {
        return calls.stream().filter(c -> c.atNanos() >= from && c.atNanos() <= to).toList();
    }

    /** Both sides' calls per phase, the phase orders, every difference with its entry, and the list itself. */
    private static void putComparison(ObjectNode record, TraceComparison cmp, List<IntendedDifferences.Entry> list) {
        ObjectNode phases = record.putObject("phases");
        for (Phase p : cmp.phases()) {
            ObjectNode o = phases.putObject(p.label());
            o.set("qemu", JSON.valueToTree(cmp.qemu().getOrDefault(p, List.of())));
            o.set("vdpactl", JSON.valueToTree(cmp.vdpactl().getOrDefault(p, List.of())));
        }
        record.put("qemuOrder", TraceComparison.labels(cmp.qemuOrder()));
        record.put("vdpactlOrder", TraceComparison.labels(cmp.vdpactlOrder()));
        ArrayNode diffs = record.putArray("differences");
        for (TraceComparison.Explained x : cmp.explain(list)) {
            ObjectNode o = diffs.addObject();
            o.put("difference", x.difference().describe());
            if (x.entry() == null) {
                o.put("id", "UNEXPLAINED");
            } else {
                o.put("id", x.entry().id()).put("reason", x.entry().reason());
            }
        }
        ArrayNode intended = record.putArray("intended");
        for (IntendedDifferences.Entry e : list) {
            intended.addObject().put("id", e.id()).put("qemu", e.qemuLabel()).put("phase", e.phase() == null ? null : e.phase().label())
                    .put("side", e.side()).put("token", e.token().pattern()).put("reason", e.reason());
        }
    }

    /** The rehearsal's downtime and per-phase wall times of its last iteration. */
    private static void putRehearsalTimes(ObjectNode timing, RehearsalResult result) {
        var it = result.lastIteration();
        timing.put("rehearsalDowntimeMs", it.downtimeNanos() / 1e6);
        ObjectNode per = timing.putObject("rehearsalPhaseMs");
        for (PhaseSummary s : it.phases()) {
            per.put(s.phase().label(), s.wallNanos() / 1e6);
        }
    }

    private static void assertExplained(TraceComparison cmp, List<IntendedDifferences.Entry> list, String what) {
        List<TraceComparison.Difference> unexplained = cmp.unexplained(list);
        assertTrue(unexplained.isEmpty(), "differences from " + what + " that docs/qemu-trace.md does not explain: "
                + unexplained.stream().map(TraceComparison.Difference::describe).toList() + "\nQEMU " + cmp.qemu()
                + "\nvdpactl " + cmp.vdpactl());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void qemuStopContMatchesTheSerialRehearsalPhaseByPhase(QemuClient client) throws Exception {
        Set<IntendedDifferences.DeviceFact> facts = deviceFacts();
        List<IntendedDifferences.Entry> intendedList = IntendedDifferences.forQemu(IntendedDifferences.STOP_CONT, client.series(), facts);
        long testStart = System.nanoTime();
        ObjectNode record = JSON.createObjectNode();
        record.put("schema", "vdpactl-qemu-trace/1");
        record.put("qemu", client.version());
        record.put("qemuSeries", client.series());
        record.put("kernel", Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip());
        record.put("date", Instant.now().toString());
        record.put("deviceFacts", facts.toString());

        List<NodeCall> qemuWindow;
        long stopNanos;
        long contNanos;
        try (SimulatorDevice dev = SimulatorDevice.add("vdpa-qemu", "02:00:00:00:00:51")) {
            record.put("device", "vdpasim_net " + dev.name() + " (" + dev.node() + ")");
            long windowStart;
            long windowEnd;
            try (QemuUnderTest q = QemuUnderTest.start(client, dir, "src", QemuUnderTest.vhostVdpaNetdev(dev.node(), false), true)) {
                VirtioPciGuestDriver guest = new VirtioPciGuestDriver(q.qtest());
                guest.find(0x1041);
                guest.map();
                long features = guest.negotiate();
                guest.driverOk();
                record.put("guestFeatures", "0x" + Long.toHexString(features));
                record.put("virtqueues", guest.queues());
                q.qmp().execute("cont", null); // virtio-net starts vhost only while the VM runs
                assertEquals("running", q.qmp().execute("query-status", null).get("status").asText());
                windowStart = now();
                long t0 = System.nanoTime();
                q.qmp().execute("stop", null);
                long t1 = System.nanoTime();
                q.qmp().execute("cont", null);
                long t2 = System.nanoTime();
                windowEnd = now();
                stopNanos = t1 - t0;
                contNanos = t2 - t1;
                assertTrue((guest.status() & VirtioPciGuestDriver.STATUS_DRIVER_OK) != 0, "the guest's device runs again");
            }
            StraceCalls trace = StraceCalls.parse(dir.resolve("src.strace"));
            List<NodeCall> all = trace.calls(dev.node());
            assertTrue(all.stream().anyMatch(c -> c.is(VhostIoctl.VDPA_SET_STATUS) && c.status() >= 0
                            && (c.status() & VirtioPciGuestDriver.STATUS_DRIVER_OK) != 0),
                    "QEMU set DRIVER_OK on " + dev.node() + ": " + all);
            qemuWindow = between(all, windowStart, windowEnd);
            record.put("windowFromNanosOfDay", windowStart).put("windowToNanosOfDay", windowEnd).put("node", dev.node());
            record.put("qemuStartCalls", all.size() - qemuWindow.size());
        }

        // vdpactl: the serial rehearsal on the lane's vdpa0, a vdpasim_net device like QEMU's
        RehearsalCapture capture = RehearsalCapture.serial(new PanamaSyscalls(), RealClock.INSTANCE, VDPA0);
        RehearsalResult result = capture.result();
        assertTrue(result.completed(), "the rehearsal completed: " + result.failure());
        List<NodeCall> vdpactlWindow = capture.window();

        TraceComparison cmp = new TraceComparison(qemuWindow, vdpactlWindow);
        putComparison(record, cmp, intendedList);
        ObjectNode timing = record.putObject("timing");
        timing.put("qemuStopMs", stopNanos / 1e6).put("qemuContMs", contNanos / 1e6)
                .put("qemuLabel", "measured, QMP round trip under strace and TCG");
        putRehearsalTimes(timing, result);
        record.put("qemuPartSeconds", (System.nanoTime() - testStart) / 1e9);
        Path out = recordFile(client, "qemu-trace");
        Files.createDirectories(out.getParent());
        Files.writeString(out, JSON.writeValueAsString(record));
        // the raw capture stays next to the record (target/ only) for whoever reads a failure
        // (without QEMU's qtest replies on stdout and the opens of other files, which name this machine's
        // paths: QemuTraceReplayTest's fixture is a copy of it)
        String nodeOpen = "\"" + HexFormat.of().formatHex("/dev/vhost-vdpa-".getBytes(StandardCharsets.US_ASCII))
                .replaceAll("(..)", "\\\\x$1");
        Files.write(out.resolveSibling(client.recordName("qemu-stop-cont").replace(".json", ".strace")), Files.readAllLines(dir.resolve("src.strace")).stream()
                .filter(l -> !l.contains(" write(1, ") && (!l.contains(" openat(") || l.contains(nodeOpen))).toList());
        assertExplained(cmp, intendedList, "--strategy serial (" + client + ")");
    }

    /**
     * A live migration between two QEMUs on two vdpa_sim devices. Debian 12's QEMU 7.2 refuses to
     * migrate a vhost-vdpa netdev without VHOST_F_LOG_ALL ("Migration disabled") unless its
     * virtqueues are shadowed ({@code x-svq=on}): the migration then stops the source's device and,
     * after {@code cont} on the destination, starts the destination's. Both sides' calls during the
     * switchover are recorded and written to the lane record; the source's stop followed by the
     * destination's start (one device's way through the migration) is compared, phase by phase, with
     * {@code --strategy svq} on the lane's vdpa0, and a difference {@link IntendedDifferences#SVQ}
     * does not explain fails the test.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void svqMigrationToASecondQemuMatchesTheSvqRehearsalPhaseByPhase(QemuClient client) throws Exception {
        Set<IntendedDifferences.DeviceFact> facts = deviceFacts();
        List<IntendedDifferences.Entry> intendedList = IntendedDifferences.forQemu(IntendedDifferences.SVQ, client.series(), facts);
        ObjectNode record = JSON.createObjectNode();
        record.put("qemu", client.version()).put("qemuSeries", client.series()).put("deviceFacts", facts.toString());
        TraceComparison cmp;
        try (SimulatorDevice a = SimulatorDevice.add("vdpa-mig-src", "02:00:00:00:00:61");
             SimulatorDevice b = SimulatorDevice.add("vdpa-mig-dst", "02:00:00:00:00:62")) {
            Path sock = dir.resolve("migration.sock");
            long migrateStart;
            long migrated;
            long destStarted;
            double downtimeMs;
            try (QemuUnderTest src = QemuUnderTest.start(client, dir, "msrc", QemuUnderTest.vhostVdpaNetdev(a.node(), true), true);
                 QemuUnderTest dst = QemuUnderTest.start(client, dir, "mdst", QemuUnderTest.vhostVdpaNetdev(b.node(), true), true,
                         "-incoming", "unix:" + sock)) {
                VirtioPciGuestDriver guest = new VirtioPciGuestDriver(src.qtest());
                guest.find(0x1041);
                guest.map();
                guest.negotiate();
                guest.driverOk();
                src.qmp().execute("cont", null);
                migrateStart = now();
                src.qmp().execute("migrate", Map.of("uri", "unix:" + sock));
                String status = "";
                for (int i = 0; i < 1200 && !status.equals("completed") && !status.equals("failed"); i++) {
                    Thread.sleep(100);
                    status = src.qmp().execute("query-migrate", null).path("status").asText();
                }
                assertEquals("completed", status, "migration: " + src.qmp().execute("query-migrate", null));
                downtimeMs = src.qmp().execute("query-migrate", null).path("downtime").asDouble();
                migrated = now();
                dst.qmp().execute("cont", null);
                destStarted = now();
                assertEquals("running", dst.qmp().execute("query-status", null).get("status").asText());
            }
            List<NodeCall> source = between(StraceCalls.parse(dir.resolve("msrc.strace")).calls(a.node()), migrateStart, migrated);
            List<NodeCall> dest = between(StraceCalls.parse(dir.resolve("mdst.strace")).calls(b.node()), migrated, destStarted);
            // the windows, so that a replay fixture can be cut from the straces kept next to the record
            record.putObject("sourceWindow").put("node", a.node()).put("windowFromNanosOfDay", migrateStart)
                    .put("windowToNanosOfDay", migrated);
            record.putObject("destinationWindow").put("node", b.node()).put("windowFromNanosOfDay", migrated)
                    .put("windowToNanosOfDay", destStarted);
            record.put("qemuDowntimeMs", downtimeMs);
            record.put("qemuDestinationStartMs", (destStarted - migrated) / 1e6);
            record.set("source", JSON.valueToTree(PhaseNormaliser.byPhase(PhaseNormaliser.place(source)).entrySet().stream()
                    .collect(Collectors.toMap(e -> e.getKey().label(), Map.Entry::getValue,
                            (x, y) -> x, LinkedHashMap::new))));
            record.set("destination", JSON.valueToTree(PhaseNormaliser.byPhase(PhaseNormaliser.place(dest)).entrySet().stream()
                    .collect(Collectors.toMap(e -> e.getKey().label(), Map.Entry::getValue,
                            (x, y) -> x, LinkedHashMap::new))));
            assertTrue(dest.stream().anyMatch(c -> c.is(VhostIoctl.VDPA_SET_STATUS)
                    && (c.status() & VirtioPciGuestDriver.STATUS_DRIVER_OK) != 0), "the destination QEMU started its device: " + dest);

            // vdpactl: --strategy svq on the lane's vdpa0, a vdpasim_net device like QEMU's
            RehearsalCapture capture = RehearsalCapture.run(new PanamaSyscalls(), RealClock.INSTANCE, VDPA0, Strategy.SVQ);
            assertTrue(capture.result().completed(), "the svq rehearsal completed: " + capture.result().failure());
            List<NodeCall> qemu = new ArrayList<>(source);
            qemu.addAll(dest);
            cmp = new TraceComparison(qemu, capture.window());
            ObjectNode comparison = record.putObject("comparison");
            putComparison(comparison, cmp, intendedList);
            putRehearsalTimes(comparison.putObject("timing"), capture.result());
        } finally {
            Path file = recordFile(client, "qemu-svq-migration");
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, JSON.writeValueAsString(record));
            for (String n : List.of("msrc", "mdst")) {
                if (Files.exists(dir.resolve(n + ".strace"))) {
                    Files.copy(dir.resolve(n + ".strace"), file.resolveSibling(client.recordName("qemu-migration-" + n).replace(".json", ".strace")),
                            StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        // every QEMU's SVQ migration is judged: 7.2's and 10.0's differences were reviewed entry by entry
        assertExplained(cmp, intendedList, "--strategy svq (" + client + ")");
    }
}
