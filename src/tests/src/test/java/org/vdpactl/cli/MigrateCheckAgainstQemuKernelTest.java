package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.vdpactl.lane.qemu.NodeCall;
import org.vdpactl.lane.qemu.QemuClient;
import org.vdpactl.lane.qemu.QemuUnderTest;
import org.vdpactl.lane.qemu.SimulatorDevice;
import org.vdpactl.lane.qemu.StraceCalls;
import org.vdpactl.lane.qemu.VirtioPciGuestDriver;
import org.vdpactl.vhost.VhostIoctl;

/**
 * {@code vdpactl migrate check} against the real client: two vdpa_sim net devices provisioned differently
 * (vdpactl's own {@code dev add} with --features, --mtu, --mac), a source QEMU on one with a guest that
 * negotiated features (the qtest driver, up to DRIVER_OK, the VM running), {@code migrate facts} and
 * {@code migrate check} on them, then the real migration into a destination QEMU on the other, once per
 * QEMU the lane has (Debian 12's 7.2, the 10.0 peer). Each case checks both ways: every blocker the check
 * predicts has the effect {@link #EFFECT} names for it in QEMU (7.2's migrate command refused, the
 * destination refusing the device state, the destination QEMU unable to open its node, or a migration that
 * completes with the guest's device changed under it), a pair it calls compatible migrates unchanged; and
 * the path it predicts is the one both QEMUs' calls show under strace (SVQ switched at migration start or
 * not, VHOST_VDPA_SUSPEND or a reset at the stop, the control queue in its own address space on the
 * destination or not). Every case is written to the lane record qemu-migrate-check.json (next to
 * QemuTraceKernelTest's records, whose strace parser it uses; scripts/lane-report renders the table in docs/migrate.md) before its
 * assertions run, so a disagreement is recorded as well as failed.
 */
@Tag("kernel")
class MigrateCheckAgainstQemuKernelTest {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** The MAC QEMU gives its first NIC when -device names none (qemu_macaddr_default_if_unset): the VM's MAC. */
    private static final String VM_MAC = "52:54:00:12:34:56";
    /** vdpa_sim net's features on every kernel of the lane (VDPASIM_FEATURES and VDPASIM_NET_FEATURES). */
    private static final String SIM_FEATURES = "ANY_LAYOUT,VERSION_1,ACCESS_PLATFORM,MAC,MTU,CTRL_VQ,CTRL_MAC_ADDR";
    private static final String SIM_WITHOUT_CTRL_MAC = "ANY_LAYOUT,VERSION_1,ACCESS_PLATFORM,MAC,MTU,CTRL_VQ";
    private static final List<ObjectNode> CASES = new ArrayList<>();

    /** What QEMU does when a blocker's condition holds: the effect the lane expects to see for each blocker id. */
    static final Map<String, String> EFFECT = Map.of(
            "needs-x-svq", "migrate-refused",
            "features", "destination-refused-state",
            "held", "destination-cannot-start",
            "mtu", "migrated-guest-mtu-changed",
            "mac", "migrated-guest-mac-changed");

    @TempDir
    Path dir;

    /** How one device is created: vdpactl dev add's --mac, --mtu (null: the driver's 1500), --features (null: all). */
    record Provision(String mac, Integer mtu, String features) {
        List<String> args() {
            List<String> a = new ArrayList<>(List.of("--mac", mac));
            if (mtu != null) {
                a.addAll(List.of("--mtu", String.valueOf(mtu)));
            }
            if (features != null) {
                a.addAll(List.of("--features", features));
            }
            return a;
        }

        String describe() {
            return "mac " + mac + (mtu == null ? "" : ", mtu " + mtu) + (features == null ? "" : ", features " + features);
        }
    }

    /**
     * One lane case: what it shows, the two devices, x-svq per QEMU series (null: the case does not apply to
     * that series), whether the destination's node is held, extra -device options, and the one blocker
     * migrate check must find (null: compatible).
     */
    record Case(String id, String shows, Provision source, Provision dest, Boolean xsvqOn72, Boolean xsvqOn10, boolean holdDest,
                String deviceOptions, String blocker) {
        Boolean xsvq(String series) {
            return series.equals("7.2") ? xsvqOn72 : xsvqOn10;
        }

        @Override
        public String toString() {
            return id;
        }
    }

    static final Provision ALIKE = new Provision(VM_MAC, null, null);

    static List<Case> cases() {
        return List.of(
                new Case("alike", "a compatible pair migrates; the path: SVQ (10.0: switched at migration start), SUSPEND or reset,"
                        + " the control queue isolated (10.0) or shadowed (7.2 x-svq)", ALIKE, ALIKE, true, false, false, "", null),
                new Case("needs-x-svq", "QEMU 7.2 without x-svq=on", ALIKE, ALIKE, false, null, false, "", "needs-x-svq"),
                new Case("features", "the destination lacks a feature the guest negotiated (CTRL_MAC_ADDR)",
                        new Provision(VM_MAC, null, SIM_FEATURES), new Provision(VM_MAC, null, SIM_WITHOUT_CTRL_MAC), true, false, false, "",
                        "features"),
                new Case("mtu", "the guest negotiated MTU (host_mtu=9000) and the destination's MTU is smaller",
                        new Provision(VM_MAC, 9000, null), new Provision(VM_MAC, 1500, null), true, false, false, ",host_mtu=9000", "mtu"),
                new Case("mac", "different provisioned MACs, no CTRL_MAC_ADDR: QEMU writes the VM's MAC into vdpa_sim's config at start",
                        new Provision("02:00:00:00:00:91", null, SIM_WITHOUT_CTRL_MAC),
                        new Provision("02:00:00:00:00:92", null, SIM_WITHOUT_CTRL_MAC), true, false, false, "", null),
                new Case("held", "the destination's node is held open by another process", ALIKE, ALIKE, true, false, true, "", "held"));
    }

    /** Every case with every QEMU of the lane it applies to. */
    static Stream<Arguments> casesPerQemu() {
        List<Arguments> out = new ArrayList<>();
        for (QemuClient client : QemuClient.all()) {
            for (Case c : cases()) {
                if (c.xsvq(client.series()) != null) {
                    out.add(Arguments.of(client, c));
                }
            }
        }
        return out.stream();
    }

    private static long now() {
        return LocalTime.now().toNanoOfDay();
    }

    private static CliRun vdpactl(String... args) {
        List<String> full = new ArrayList<>(List.of("--backend", "kernel"));
        full.addAll(List.of(args));
        return CliRun.of(full.toArray(String[]::new));
    }

    private static SimulatorDevice create(String name, Provision p) throws Exception {
        List<String> args = new ArrayList<>(List.of("dev", "add", name, "--mgmtdev", "vdpasim_net"));
        args.addAll(p.args());
        CliRun r = vdpactl(args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), "vdpactl " + String.join(" ", args) + ": " + r.err());
        return SimulatorDevice.created(name);
    }

    /** A process other than QEMU holding a node open (vhost-vdpa allows one opener), as a stray VMM would. */
    private static final class Holder implements AutoCloseable {
        private final Process process;

        Holder(String node) throws IOException {
            process = new ProcessBuilder("sh", "-c", "exec 3<>" + node + " && echo held && exec sleep 600").redirectErrorStream(true).start();
            BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = r.readLine();
            if (!"held".equals(line)) {
                process.destroyForcibly();
                throw new IOException("could not hold " + node + ": " + line);
            }
        }

        long pid() {
            return process.pid();
        }

        @Override
        public void close() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** What QEMU did, and the path its calls show. */
    private static final class Observed {
        String outcome;
        String detail = "";
        String svq;
        String stop;
        String cvq;
        String macBefore;
        String macAfter;
        Integer mtuBefore;
        Integer mtuAfter;
    }

    /** QEMU's stderr without its trace-point lines: the error it printed before exiting. */
    private static String errors(Path stderr) throws IOException {
        if (!Files.exists(stderr)) {
            return "";
        }
        List<String> lines = Files.readAllLines(stderr).stream().filter(l -> !l.contains("vhost_vdpa_") && !l.isBlank()).toList();
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - 6), lines.size()));
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("casesPerQemu")
    void migrateCheckPredictsWhatQemuDoes(QemuClient client, Case c) throws Exception {
        boolean xsvq = c.xsvq(client.series());
        ObjectNode rec = JSON.createObjectNode();
        rec.put("case", c.id()).put("shows", c.shows()).put("qemu", client.version()).put("qemuSeries", client.series())
                .put("xSvq", xsvq).put("source", c.source().describe()).put("destination", c.dest().describe())
                .put("destinationHeld", c.holdDest()).put("deviceOptions", c.deviceOptions());
        synchronized (CASES) {
            CASES.add(rec);
        }
        Observed o = new Observed();
        JsonNode pair;
        String qemuVersion = client.version().split(" ")[0];
        try (SimulatorDevice src = create("mig-src", c.source());
             SimulatorDevice dst = create("mig-dst", c.dest());
             Holder holder = c.holdDest() ? new Holder(dst.node()) : null) {
            if (holder != null) {
                rec.put("destinationHeldBy", "pid " + holder.pid() + " (sleep)");
            }
            String netdevSrc = QemuUnderTest.vhostVdpaNetdev(src.node(), xsvq);
            String netdevDst = QemuUnderTest.vhostVdpaNetdev(dst.node(), xsvq);
            Path sock = dir.resolve("migration.sock");
            long migrateStart = 0;
            long migrateEnd = 0;
            try (QemuUnderTest s = QemuUnderTest.startWithDeviceOptions(client, dir, "src", List.of(netdevSrc),
                    QemuUnderTest.Tracing.STRACE, c.deviceOptions())) {
                VirtioPciGuestDriver guest = new VirtioPciGuestDriver(s.qtest());
                guest.find(0x1041);
                guest.map();
                long features = guest.negotiate();
                guest.driverOk();
                s.qmp().execute("cont", null); // virtio-net starts its vhost device only while the VM runs
                rec.put("guestFeatures", "0x" + Long.toHexString(features));
                o.macBefore = guest.configMac();
                o.mtuBefore = c.deviceOptions().contains("host_mtu") ? guest.configMtu() : null;

                // the facts of this host (the lane VM is both hosts): the source's node held by its QEMU with the
                // guest's negotiated features, the destination's free (or held, in the held case)
                CliRun facts = vdpactl("--json", "migrate", "facts", "--host", "lane", "--qemu-version", qemuVersion);
                assertEquals(0, facts.exitCode(), facts.err());
                Path factsFile = dir.resolve("facts.json");
                Files.writeString(factsFile, facts.out());
                JsonNode factsDoc = JSON.readTree(facts.out());
                for (JsonNode d : factsDoc.get("devices")) {
                    if (d.get("name").asText().equals(src.name())) {
                        // the source's config MAC is the VM's once QEMU has started on it (vdpa_sim stores QEMU's write)
                        rec.put("sourceFactsMac", d.path("mac").asText(null)).put("sourceFeatures", d.path("features").asText(null))
                                .put("sourceNegotiated", d.path("negotiated_features").asText(null))
                                .put("sourceBackendFeatures", d.path("backend_features").asText(null));
                    } else if (d.get("name").asText().equals(dst.name())) {
                        rec.put("destinationFactsMac", d.path("mac").asText(null)).put("destinationFeatures", d.path("features").asText(null));
                    }
                }
                List<String> args = new ArrayList<>(List.of("--json", "migrate", "check", "--source", factsFile.toString(), "--dest",
                        factsFile.toString(), "--pair", src.name() + ":" + dst.name(), "--memory", "64M"));
                if (xsvq) {
                    args.add("--x-svq");
                }
                CliRun check = vdpactl(args.toArray(String[]::new));
                JsonNode doc = JSON.readTree(check.out());
                pair = doc.get("pairs").get(0);
                assertEquals(pair.get("verdict").asText().equals("blocked") ? 10 : 0, check.exitCode(), check.err());
                ObjectNode predicted = rec.putObject("predicted");
                predicted.put("verdict", pair.get("verdict").asText());
                ArrayNode blockers = predicted.putArray("blockers");
                pair.get("blockers").forEach(b -> blockers.add(b.get("id").asText()));
                ArrayNode warnings = predicted.putArray("warnings");
                pair.get("warnings").forEach(w -> warnings.add(w.get("id").asText()));
                predicted.put("svq", pair.at("/path/svq").asText(null)).put("stop", pair.at("/path/stop").asText(null))
                        .put("cvq", pair.at("/path/cvq").asText(null));

                // the real migration
                QemuUnderTest d;
                try {
                    d = QemuUnderTest.startWithDeviceOptions(client, dir, "dst", List.of(netdevDst), QemuUnderTest.Tracing.STRACE,
                            c.deviceOptions(), "-incoming", "unix:" + sock);
                } catch (IOException e) {
                    o.outcome = "destination-cannot-start";
                    o.detail = errors(dir.resolve("dst.stderr"));
                    d = null;
                }
                if (d != null) {
                    try (QemuUnderTest dq = d) {
                        migrateStart = now();
                        try {
                            s.qmp().execute("migrate", Map.of("uri", "unix:" + sock));
                        } catch (IOException e) {
                            o.outcome = "migrate-refused";
                            o.detail = e.getMessage();
                        }
                        if (o.outcome == null) {
                            String status = "";
                            for (int i = 0; i < 1200 && !status.equals("completed") && !status.equals("failed"); i++) {
                                Thread.sleep(100);
                                status = s.qmp().execute("query-migrate", null).path("status").asText();
                            }
                            migrateEnd = now();
                            rec.put("sourceMigrationStatus", status);
                            String dstStatus = destinationStatus(dq);
                            rec.put("destinationStatus", dstStatus);
                            if (dstStatus.equals("exited")) {
                                o.outcome = "destination-refused-state";
                                o.detail = errors(dir.resolve("dst.stderr"));
                            } else if (!status.equals("completed")) {
                                o.outcome = "migration-" + status;
                                o.detail = s.qmp().execute("query-migrate", null).toString();
                            } else {
                                dq.qmp().execute("cont", null);
                                assertEquals("running", dq.qmp().execute("query-status", null).get("status").asText());
                                VirtioPciGuestDriver moved = new VirtioPciGuestDriver(dq.qtest());
                                moved.find(0x1041);
                                moved.attach();
                                o.macAfter = moved.configMac();
                                o.mtuAfter = o.mtuBefore == null ? null : moved.configMtu();
                                boolean mtuChanged = o.mtuBefore != null && !o.mtuBefore.equals(o.mtuAfter);
                                boolean macChanged = !o.macBefore.equalsIgnoreCase(o.macAfter);
                                o.outcome = mtuChanged ? "migrated-guest-mtu-changed" : macChanged ? "migrated-guest-mac-changed" : "migrated";
                            }
                        }
                    }
                }
            }
            observePath(o, xsvq, src.node(), dst.node(), migrateStart, migrateEnd);
        }
        ObjectNode observed = rec.putObject("observed");
        observed.put("outcome", o.outcome).put("detail", o.detail).put("svq", o.svq).put("stop", o.stop).put("cvq", o.cvq)
                .put("guestMacBefore", o.macBefore).put("guestMacAfter", o.macAfter);
        if (o.mtuBefore != null) {
            observed.put("guestMtuBefore", o.mtuBefore).put("guestMtuAfter", o.mtuAfter);
        }
        List<String> disagreements = disagreements(c, rec.get("predicted"), o);
        ArrayNode dis = rec.putArray("disagreements");
        disagreements.forEach(dis::add);
        rec.put("agrees", disagreements.isEmpty());
        writeRecord();

        assertTrue(disagreements.isEmpty(), c.id() + " on QEMU " + client.series() + ": " + disagreements + "\nrecord: " + rec);
    }

    /** "paused" once the destination loaded the state (-S: it waits for cont), "exited" when it could not. */
    private static String destinationStatus(QemuUnderTest d) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            if (!d.alive()) {
                return "exited";
            }
            try {
                String st = d.qmp().execute("query-status", null).get("status").asText();
                if (!st.equals("inmigrate")) {
                    return st;
                }
            } catch (IOException e) {
                if (!d.alive()) {
                    return "exited";
                }
            }
            Thread.sleep(100);
        }
        return "inmigrate";
    }

    /**
     * The path as QEMU's calls show it (strace, QemuTraceKernelTest's parser): on the source between the
     * migrate command and its end, VHOST_VDPA_SUSPEND (stop: suspend) or only a status reset (stop: reset),
     * and a DRIVER_OK after the migration began (10.0's restart on shadow virtqueues); on the destination,
     * VHOST_VDPA_SET_GROUP_ASID or an IOTLB message for address space 1 (the control queue isolated).
     */
    private void observePath(Observed o, boolean xsvq, String srcNode, String dstNode, long from, long to) throws IOException {
        if ("migrate-refused".equals(o.outcome)) {
            // 7.2's blockers without x-svq=on: no VHOST_F_LOG_ALL (hw/virtio/vhost.c vhost_dev_init), and for a
            // control queue net/vhost-vdpa.c's "cannot migrate with CVQ"; either means x-svq=on is required
            o.svq = o.detail.contains("VHOST_F_LOG_ALL") || o.detail.contains("cannot migrate with CVQ") ? "required"
                    : "refused: " + o.detail;
            return;
        }
        if (from == 0 || !Files.exists(dir.resolve("src.strace"))) {
            return; // the migration never began: no path to see
        }
        List<NodeCall> source = StraceCalls.parse(dir.resolve("src.strace")).calls(srcNode).stream()
                .filter(x -> x.atNanos() >= from && x.atNanos() <= to).toList();
        boolean suspended = source.stream().anyMatch(x -> x.is(VhostIoctl.VDPA_SUSPEND));
        boolean reset = source.stream().anyMatch(x -> x.is(VhostIoctl.VDPA_SET_STATUS) && x.status() == 0);
        boolean restarted = source.stream().anyMatch(x -> x.is(VhostIoctl.VDPA_SET_STATUS) && x.status() > 0
                && (x.status() & VirtioPciGuestDriver.STATUS_DRIVER_OK) != 0);
        o.stop = suspended ? "suspend" : reset ? "reset" : "none seen";
        o.svq = xsvq ? (restarted ? "x-svq, restarted" : "x-svq") : restarted ? "at-migration-start" : "not switched";
        if (o.outcome.startsWith("migrated") && Files.exists(dir.resolve("dst.strace"))) {
            List<NodeCall> dest = StraceCalls.parse(dir.resolve("dst.strace")).calls(dstNode);
            boolean asid = dest.stream().anyMatch(x -> x.is(VhostIoctl.VDPA_SET_GROUP_ASID) || (x.isIotlb() && x.asid() > 0));
            o.cvq = asid ? "isolated" : xsvq ? "shadowed" : "passthrough";
        }
    }

    /** Where the prediction and QEMU differ (empty: they agree). */
    static List<String> disagreements(Case c, JsonNode predicted, Observed o) {
        List<String> out = new ArrayList<>();
        List<String> blockers = new ArrayList<>();
        predicted.get("blockers").forEach(b -> blockers.add(b.asText()));
        List<String> meant = c.blocker() == null ? List.of() : List.of(c.blocker());
        if (!blockers.equals(meant)) {
            out.add("the case is built to show " + (c.blocker() == null ? "a compatible pair" : "the " + c.blocker() + " blocker")
                    + ", migrate check found blockers " + blockers);
        }
        if (blockers.isEmpty() && !"migrated".equals(o.outcome)) {
            out.add("predicted " + predicted.get("verdict").asText() + " but QEMU: " + o.outcome + " (" + o.detail + ")");
        }
        for (String b : blockers) {
            if (!EFFECT.getOrDefault(b, "?").equals(o.outcome)) {
                out.add("blocker " + b + " predicts " + EFFECT.getOrDefault(b, "(no effect known)") + ", QEMU: " + o.outcome
                        + " (" + o.detail + ")");
            }
        }
        if (o.svq != null && !o.svq.equals(predicted.get("svq").asText())) {
            out.add("SVQ predicted " + predicted.get("svq").asText() + ", the trace shows " + o.svq);
        }
        if (o.stop != null && !o.stop.equals(predicted.get("stop").asText())) {
            out.add("stop predicted " + predicted.get("stop").asText() + ", the trace shows " + o.stop);
        }
        if (o.cvq != null && !o.cvq.equals(predicted.get("cvq").asText())) {
            out.add("CVQ predicted " + predicted.get("cvq").asText() + ", the trace shows " + o.cvq);
        }
        return out;
    }

    /** The lane record, rewritten after every case so that a lane that dies midway keeps what it saw. */
    private static void writeRecord() throws IOException {
        ObjectNode record = JSON.createObjectNode();
        record.put("schema", "vdpactl-migrate-check-lane/1");
        record.put("kernel", Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip());
        record.put("date", Instant.now().toString());
        ArrayNode cases = record.putArray("cases");
        synchronized (CASES) {
            CASES.forEach(cases::add);
        }
        String out = System.getenv().getOrDefault("VDPACTL_QEMU_TRACE_OUT", "target/qemu-trace.json");
        Path file = Path.of(out).toAbsolutePath().resolveSibling("qemu-migrate-check.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, JSON.writeValueAsString(record));
    }

    @AfterAll
    static void everyCaseRan() {
        // a selection that ran no case is no pass (the brief: a selection of zero tests fails)
        assertTrue(!CASES.isEmpty(), "no migrate-check lane case ran");
    }
}
