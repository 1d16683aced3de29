package org.vdpactl.lane.qemu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.time.VirtualClock;

/**
 * The lane's comparison without the VM: QEMU's stop/cont on vdpa_sim as the 6.12 lane recorded it, with
 * Debian 12's QEMU 7.2 and with bookworm-backports' QEMU 10.0
 * (the strace log and its window, copied from target/lane/6.12/ of a lane run into the test
 * resources), against the serial rehearsal of the fake kernel's vdpasim_net device (the same calls
 * as the real one: the fake follows 6.12's vdpa_sim). So every `mvn test` fails when the
 * rehearsal's serial order drifts from what QEMU does, not only the lane.
 */
class QemuTraceReplayTest {
    /** QEMU 7.2's stop/cont (Debian 12's), and QEMU 10.0's (bookworm-backports'), both on the 6.12 lane's vdpa_sim. */
    private static final String FIXTURE = "/qemu-trace/6.12-stop-cont";
    private static final String FIXTURE_10 = "/qemu-trace/6.12-stop-cont-10.0";

    private static Path resource(String fixture, String name) throws Exception {
        return Path.of(QemuTraceReplayTest.class.getResource(fixture + name).toURI());
    }

    static TraceComparison compareWithTheFake() throws Exception {
        return compareWithTheFake(FIXTURE);
    }

    static TraceComparison compareWithTheFake(String fixture) throws Exception {
        JsonNode window = new ObjectMapper().readTree(resource(fixture, ".json").toFile());
        long from = window.get("windowFromNanosOfDay").asLong();
        long to = window.get("windowToNanosOfDay").asLong();
        List<NodeCall> qemu = StraceCalls.parse(resource(fixture, ".strace")).calls(window.get("node").asText()).stream()
                .filter(c -> c.atNanos() >= from && c.atNanos() <= to).toList();
        Inventory inv = new Inventory(List.of(new Inventory.Mgmt("vdpasim_net", null, "vdpasim_net", null)),
                List.of(new Inventory.Device("vdpa0", "vdpasim_net", "02:00:00:00:00:01", null, null, null, null, null)));
        try (FakeKernel k = FakeInside.inventory(FakeKernel.builder(), inv).build(); FakeProcess p = k.newProcess()) {
            RehearsalCapture c = RehearsalCapture.serial(p, new VirtualClock(), new DeviceTarget("vdpa0", "/dev/vhost-vdpa-0"));
            assertTrue(c.result().completed(), String.valueOf(c.result().failure()));
            return new TraceComparison(qemu, c.window());
        }
    }

    @Test
    void theSerialRehearsalDiffersFromQemusRecordedStopContOnlyAsDocumented() throws Exception {
        TraceComparison cmp = compareWithTheFake();
        assertTrue(!cmp.qemu().isEmpty(), "the fixture has QEMU's window");
        // the fixture is QEMU 7.2's: only the entries that apply to 7.2 explain its differences
        List<TraceComparison.Difference> unexplained = cmp.unexplained(IntendedDifferences.forQemu(IntendedDifferences.STOP_CONT, "7.2"));
        assertTrue(unexplained.isEmpty(), "undocumented differences from QEMU: "
                + unexplained.stream().map(TraceComparison.Difference::describe).toList()
                + "\nQEMU " + cmp.qemu() + "\nvdpactl " + cmp.vdpactl());
    }

    @Test
    void theSerialRehearsalDiffersFromQemu10sRecordedStopContOnlyAsDocumentedForQemu10() throws Exception {
        TraceComparison cmp = compareWithTheFake(FIXTURE_10);
        assertTrue(!cmp.qemu().isEmpty(), "the fixture has QEMU 10.0's window");
        // only the entries that apply to 10.0: a 7.2-only entry does not excuse a 10.0 difference
        List<TraceComparison.Difference> unexplained = cmp.unexplained(IntendedDifferences.forQemu(IntendedDifferences.STOP_CONT, "10.0"));
        assertTrue(unexplained.isEmpty(), "undocumented differences from QEMU 10.0: "
                + unexplained.stream().map(TraceComparison.Difference::describe).toList()
                + "\nQEMU " + cmp.qemu() + "\nvdpactl " + cmp.vdpactl());
    }
}
