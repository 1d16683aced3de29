package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.vhost.VhostVdpaDriver;
import org.vdpactl.fake.device.FakeVdpaDevice;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.sys.Errno;

/**
 * A failure injected at each distinct call position of a 16-device rehearsal, one run per position:
 * every device must end in a known state (sources running: resumed, DRIVER_OK, memory mapped; a
 * separate destination reset, memory as before), the failing call must be reported with its errno,
 * and the fake process and the JVM must have exactly the fds and mappings they had before.
 */
class RehearsalFaultInjectionTest {
    private static final int DEVICES = 16;
    private static final int PAIRS = 2;
    private static final GuestMemoryLayout MEMORY = GuestMemoryLayout.of(6L << 30, 1L << 30, 4096, true);

    /** A call of the device sequence, and the name and occurrence the fake's fault injector counts it under. */
    record Position(int index, String device, String call, String faultCall, long occurrence) {
    }

    @Test
    void everyWindowCallPositionOfASixteenDeviceRehearsalEndsInAKnownState() {
        runAllPositions(Strategy.PARALLEL, false, p -> true);
        // no VHOST_VDPA_RESUME: the window restarts every device from reset and resumes none (as QEMU 10.0)
        assertEquals(Set.of("VHOST_GET_BACKEND_FEATURES", "VHOST_GET_VRING_BASE", "VHOST_SET_BACKEND_FEATURES", "VHOST_SET_FEATURES", "VHOST_SET_VRING_ADDR", "VHOST_SET_VRING_BASE",
                "VHOST_SET_VRING_CALL", "VHOST_SET_VRING_KICK", "VHOST_SET_VRING_NUM", "VHOST_VDPA_GET_CONFIG", "VHOST_VDPA_GET_STATUS",
                "VHOST_VDPA_SET_STATUS", "VHOST_VDPA_SET_VRING_ENABLE", "VHOST_VDPA_SUSPEND", "change_num_qps",
                "write"), coveredCalls, "every kind of window call was failed at least once");
    }

    @Test
    void pipelinedAndSerialRollBackToo() {
        // every fifth position: the strategies differ only in which other devices are mid-phase
        runAllPositions(Strategy.PIPELINED, false, p -> p.index() % 5 == 0);
        runAllPositions(Strategy.SERIAL, false, p -> p.index() % 5 == 2);
    }

    @Test
    void svqRollsBackToTheGuestsRingsToo() {
        // the shadowed start's loose maps, the control queue's address space and the switch back in every rollback
        runAllPositions(Strategy.SVQ, false, p -> p.index() % 4 == 1);
        runAllPositions(Strategy.SVQ, true, p -> p.index() % 4 == 3);
    }

    @Test
    void separateDestinationsAreResetAndSourcesResumed() {
        runAllPositions(Strategy.PARALLEL, true, p -> p.index() % 3 == 0);
    }

    private final Set<String> coveredCalls = new TreeSet<>();

    private void runAllPositions(Strategy strategy, boolean separate, Predicate<Position> which) {
        List<Position> positions = positions(strategy, separate);
        assertTrue(positions.size() > 40, "expected a full call sequence, got " + positions.size());
        warmUp(strategy, separate);
        int ran = 0;
        for (Position p : positions) {
            if (which.test(p)) {
                runWithFault(strategy, separate, p);
                ran++;
            }
        }
        assertTrue(ran > 0);
    }

    private static RehearsalPlan plan(FakeRig rig, Strategy strategy, boolean separate) {
        RehearsalPlan.Builder b = RehearsalPlan.builder(separate ? rig.devices.subList(0, DEVICES / 2) : rig.devices)
                .strategy(strategy).memory(MEMORY);
        if (separate) {
            b.destinations(rig.devices.subList(DEVICES / 2, DEVICES));
        }
        return b.build();
    }

    private static void warmUp(Strategy strategy, boolean separate) {
        try (FakeRig rig = FakeRig.withModels(DEVICES, PAIRS, i -> new FixedCostModel(1))) {
            rig.rehearsal().run(plan(rig, strategy, separate));
        }
    }

    /** The window calls of a clean run, each mapped to a device chosen round-robin and its fault-injector occurrence. */
    private static List<Position> positions(Strategy strategy, boolean separate) {
        try (FakeRig rig = FakeRig.withModels(DEVICES, PAIRS, i -> new FixedCostModel(1))) {
            RehearsalResult clean = rig.rehearsal().run(plan(rig, strategy, separate));
            assertTrue(clean.completed());
            List<Span> all = new ArrayList<>(clean.setupSpans());
            all.addAll(clean.lastIteration().spans());
            List<Lane> lanes = clean.plan().lanes();
            // the call sequence of lane 0 (source and destination calls), in time order
            List<Span> sequence = clean.lastIteration().windowSpans().stream()
                    .filter(s -> s.device().equals(lanes.get(0).source()) || s.device().equals(lanes.get(0).destination()))
                    .toList();
            List<Position> out = new ArrayList<>();
            for (int i = 0; i < sequence.size(); i++) {
                Span template = sequence.get(i);
                Lane lane = lanes.get(i % lanes.size());
                String device = template.device().equals(lanes.get(0).source()) ? lane.source() : lane.destination();
                String faultCall = faultCall(template.call());
                Span target = nth(clean.lastIteration().windowSpans(), device, indexOnDevice(sequence, i));
                long occurrence = all.stream().takeWhile(s -> s != target)
                        .filter(s -> s.device().equals(device) && countsAs(s.call(), faultCall)).count() + 1;
                out.add(new Position(i, device, target.call(), faultCall, occurrence));
            }
            return out;
        }
    }

    private static int indexOnDevice(List<Span> sequence, int i) {
        String device = sequence.get(i).device();
        int n = 0;
        for (int k = 0; k < i; k++) {
            if (sequence.get(k).device().equals(device)) {
                n++;
            }
        }
        return n;
    }

    private static Span nth(List<Span> window, String device, int n) {
        return window.stream().filter(s -> s.device().equals(device)).skip(n).findFirst().orElseThrow();
    }

    /** True when the span's call issued the ioctl {@code faultCall} (the set-up's negotiation is a GET and a SET in one span). */
    private static boolean countsAs(String spanCall, String faultCall) {
        return faultCall.equals(faultCall(spanCall)) || spanCall.equals("VHOST_GET/SET_BACKEND_FEATURES")
                && (faultCall.equals("VHOST_GET_BACKEND_FEATURES") || faultCall.equals("VHOST_SET_BACKEND_FEATURES"));
    }

    /**
     * The name the fake's fault injector matches: the ioctl's kernel name, "write" for IOTLB messages,
     * the driver op for a control-queue command (a failing op is answered VIRTIO_NET_ERR).
     */
    static String faultCall(String spanCall) {
        if (spanCall.startsWith("write IOTLB")) {
            return "write";
        }
        if (spanCall.startsWith("CVQ ")) {
            return "change_num_qps";
        }
        return spanCall.split(" ")[0];
    }

    private void runWithFault(Strategy strategy, boolean separate, Position p) {
        String context = strategy.label() + (separate ? " separate" : "") + " position " + p.index() + " (" + p.call() + " on "
                + p.device() + ")";
        FaultRule rule = FaultRule.errnoAt(p.device(), p.faultCall(), p.occurrence(), Errno.EIO);
        try (FakeRig rig = FakeRig.withModels(DEVICES, PAIRS, i -> new FixedCostModel(1), rule)) {
            LeakCheck leaks = new LeakCheck(rig.process);
            Map<String, String> problems = new HashMap<>();
            RehearsalListener inspect = new RehearsalListener() {
                @Override
                public void beforeClose(List<DeviceReport> devices) {
                    for (DeviceReport d : devices) {
                        String problem = kernelSideProblem(rig, d, separate);
                        if (problem != null) {
                            problems.put(d.name(), problem);
                        }
                    }
                }
            };
            RehearsalResult r = rig.rehearsal().listener(inspect).run(plan(rig, strategy, separate));

            assertFalse(r.completed(), context + ": the injected fault did not stop the rehearsal");
            RehearsalFailure f = r.failure();
            assertNotNull(f, context);
            assertEquals(p.device(), f.device(), context);
            assertEquals(p.call(), f.call(), context);
            assertEquals(Errno.EIO, f.errno(), context);
            coveredCalls.add(faultCall(p.call()));
            assertEquals(DEVICES, r.devices().size(), context);
            for (DeviceReport d : r.devices()) {
                DeviceState expected = d.role().equals("destination") ? DeviceState.RESET : DeviceState.RUNNING;
                assertEquals(expected, d.state(), context + ": " + d);
                assertEquals(!d.role().equals("destination"), d.mapped(), context + ": " + d);
            }
            assertTrue(problems.isEmpty(), context + ": kernel-side state " + problems);
            assertTrue(r.lastIteration().failures().stream().anyMatch(s -> s.errno() == Errno.EIO), context);
            rig.process.close();
            leaks.assertNothingLeaked(context);
        }
    }

    /** What the fake kernel says about a device, against what the report claims. */
    private static String kernelSideProblem(FakeRig rig, DeviceReport d, boolean separate) {
        FakeVdpaDevice dev = FakeInside.device(rig.kernel, d.name()).orElseThrow();
        if (VhostVdpaDriver.of(rig.kernel).vhost(dev).inBatch()) {
            // vhost keeps in_batch across SET_STATUS 0: every later message of another address space would fail
            return "an IOTLB batch left open";
        }
        List<MapEntry> table = VhostVdpaDriver.of(rig.kernel).vhost(dev).iotlbEntries(0);
        long mapped = table.stream().mapToLong(MapEntry::size).sum();
        boolean destination = d.role().equals("destination");
        if (destination) {
            if (dev.status() != 0 || !table.isEmpty()) {
                return "destination not reset and unmapped: status " + dev.status() + ", " + table.size() + " entries";
            }
            return null;
        }
        boolean running = (dev.status() & 4) != 0 && !dev.isSuspended();
        if (!running || mapped != MEMORY.totalBytes()) {
            return "source not running and fully mapped: status " + dev.status() + " suspended " + dev.isSuspended()
                    + " mapped " + mapped + " of " + MEMORY.totalBytes();
        }
        return null;
    }
}
