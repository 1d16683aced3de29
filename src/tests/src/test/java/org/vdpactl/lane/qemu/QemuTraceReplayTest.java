package org.vdpactl.lane.qemu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.time.VirtualClock;

/**
 * The lane's comparison without the VM: QEMU's stop/cont on vdpa_sim as the 6.12 lane recorded it
 * (the strace log and its window, copied from target/lane/6.12/ of a lane run into the test
 * resources), against the serial rehearsal of the fake kernel's vdpasim_net device (the same calls
 * as the real one: the fake follows 6.12's vdpa_sim). So every `mvn test` fails when the
 * rehearsal's serial order drifts from what QEMU does, not only the lane.
 */
class QemuTraceReplayTest {
    private static final String FIXTURE = "/qemu-trace/6.12-stop-cont";

    private static Path resource(String name) throws Exception {
        return Path.of(QemuTraceReplayTest.class.getResource(FIXTURE + name).toURI());
    }

    static TraceComparison compareWithTheFake() throws Exception {
        JsonNode window = new ObjectMapper().readTree(resource(".json").toFile());
        long from = window.get("windowFromNanosOfDay").asLong();
        long to = window.get("windowToNanosOfDay").asLong();
        List<NodeCall> qemu = StraceCalls.parse(resource(".strace")).calls(window.get("node").asText()).stream()
                .filter(c -> c.atNanos() >= from && c.atNanos() <= to).toList();
        Inventory inv = new Inventory(List.of(new Inventory.Mgmt("vdpasim_net", null, "vdpasim_net", null)),
                List.of(new Inventory.Device("vdpa0", "vdpasim_net", "02:00:00:00:00:01", null, null, null, null, null)));
        try (FakeKernel k = FakeKernel.builder().inventory(inv).build(); FakeProcess p = k.newProcess()) {
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
}
