package org.vdpactl.lane.qemu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.orchestra.Strategy;
import org.vdpactl.time.VirtualClock;

/**
 * The lane's SVQ comparison without the VM: QEMU 7.2's shadow-virtqueue migration on vdpa_sim as
 * the 6.12 lane recorded it (the source's stop during {@code migrate}, then the destination's start
 * at {@code cont}), against {@code --strategy svq} on the fake's vdpasim_net. Every `mvn test` fails
 * when the svq rehearsal's order drifts from QEMU's beyond {@link IntendedDifferences#SVQ}.
 */
class QemuSvqTraceReplayTest {
    private static final String FIXTURE = "/qemu-trace/6.12-svq-migration";

    private static Path resource(String name) throws Exception {
        return Path.of(QemuSvqTraceReplayTest.class.getResource(FIXTURE + name).toURI());
    }

    private static List<NodeCall> window(JsonNode side, String strace) throws Exception {
        long from = side.get("windowFromNanosOfDay").asLong();
        long to = side.get("windowToNanosOfDay").asLong();
        return StraceCalls.parse(resource(strace)).calls(side.get("node").asText()).stream()
                .filter(c -> c.atNanos() >= from && c.atNanos() <= to).toList();
    }

    /** QEMU's source stop followed by its destination's start: one device's way through an SVQ migration. */
    static List<NodeCall> qemuSvqMigration() throws Exception {
        JsonNode w = new ObjectMapper().readTree(resource(".json").toFile());
        List<NodeCall> out = new ArrayList<>(window(w.get("source"), "-src.strace"));
        out.addAll(window(w.get("destination"), "-dst.strace"));
        return out;
    }

    static TraceComparison compareWithTheFake() throws Exception {
        Inventory inv = new Inventory(List.of(new Inventory.Mgmt("vdpasim_net", null, "vdpasim_net", null)),
                List.of(new Inventory.Device("vdpa0", "vdpasim_net", "02:00:00:00:00:01", null, null, null, null, null)));
        try (FakeKernel k = FakeInside.inventory(FakeKernel.builder(), inv).build(); FakeProcess p = k.newProcess()) {
            RehearsalCapture c = RehearsalCapture.run(p, new VirtualClock(), new DeviceTarget("vdpa0", "/dev/vhost-vdpa-0"), Strategy.SVQ);
            assertTrue(c.result().completed(), String.valueOf(c.result().failure()));
            return new TraceComparison(qemuSvqMigration(), c.window());
        }
    }

    @Test
    void theSvqRehearsalDiffersFromQemusRecordedSvqMigrationOnlyAsDocumented() throws Exception {
        TraceComparison cmp = compareWithTheFake();
        assertTrue(!cmp.qemu().isEmpty(), "the fixture has QEMU's windows");
        // the fixture is QEMU 7.2's: only the entries that apply to 7.2 explain its differences
        List<TraceComparison.Difference> unexplained = cmp.unexplained(IntendedDifferences.forQemu(IntendedDifferences.SVQ, "7.2"));
        assertTrue(unexplained.isEmpty(), "undocumented differences from QEMU's SVQ migration: "
                + unexplained.stream().map(TraceComparison.Difference::describe).toList()
                + "\nQEMU " + cmp.qemu() + "\nvdpactl " + cmp.vdpactl() + "\norder QEMU " + TraceComparison.labels(cmp.qemuOrder())
                + "\norder vdpactl " + TraceComparison.labels(cmp.vdpactlOrder()));
    }
}
