package org.vdpactl.lane.qemu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.orchestra.Strategy;
import org.vdpactl.time.VirtualClock;

/**
 * The lane's SVQ comparison without the VM: QEMU's shadow-virtqueue migration on vdpa_sim as the
 * 6.12 lane recorded it (the source's stop during {@code migrate}, then the destination's start at
 * {@code cont}), per recorded QEMU (see the rows below), against
 * {@code --strategy svq} on the fake's vdpasim_net (6.12). Every `mvn test` fails when the svq
 * rehearsal's order drifts from either QEMU's beyond {@link IntendedDifferences#SVQ} for that version.
 */
class QemuSvqTraceReplayTest {
    private static Path resource(String fixture, String name) throws Exception {
        return Path.of(QemuSvqTraceReplayTest.class.getResource(fixture + name).toURI());
    }

    private static List<NodeCall> window(String fixture, JsonNode side, String strace) throws Exception {
        long from = side.get("windowFromNanosOfDay").asLong();
        long to = side.get("windowToNanosOfDay").asLong();
        return StraceCalls.parse(resource(fixture, strace)).calls(side.get("node").asText()).stream()
                .filter(c -> c.atNanos() >= from && c.atNanos() <= to).toList();
    }

    /** QEMU's source stop followed by its destination's start: one device's way through an SVQ migration. */
    static List<NodeCall> qemuSvqMigration(String fixture) throws Exception {
        JsonNode w = new ObjectMapper().readTree(resource(fixture, ".json").toFile());
        List<NodeCall> out = new ArrayList<>(window(fixture, w.get("source"), "-src.strace"));
        out.addAll(window(fixture, w.get("destination"), "-dst.strace"));
        return out;
    }

    static TraceComparison compareWithTheFake(String fixture) throws Exception {
        Inventory inv = new Inventory(List.of(new Inventory.Mgmt("vdpasim_net", null, "vdpasim_net", null)),
                List.of(new Inventory.Device("vdpa0", "vdpasim_net", "02:00:00:00:00:01", null, null, null, null, null)));
        try (FakeKernel k = FakeInside.inventory(FakeKernel.builder(), inv).build(); FakeProcess p = k.newProcess()) {
            RehearsalCapture c = RehearsalCapture.run(p, new VirtualClock(), new DeviceTarget("vdpa0", "/dev/vhost-vdpa-0"), Strategy.SVQ);
            assertTrue(c.result().completed(), String.valueOf(c.result().failure()));
            return new TraceComparison(qemuSvqMigration(fixture), c.window());
        }
    }

    /** One row per recorded SVQ migration (the 10.0 fixture: the 6.12 subset lane of 2026-12-06 on fecf3e9). */
    @ParameterizedTest(name = "QEMU {1}")
    @CsvSource({"/qemu-trace/6.12-svq-migration, 7.2", "/qemu-trace/6.12-svq-migration-10.0, 10.0"})
    void theSvqRehearsalDiffersFromQemusRecordedSvqMigrationOnlyAsDocumented(String fixture, String series) throws Exception {
        TraceComparison cmp = compareWithTheFake(fixture);
        assertTrue(!cmp.qemu().isEmpty(), "the fixture has QEMU's windows");
        // only the entries that apply to the fixture's QEMU: a 7.2-only entry does not excuse a 10.0 difference
        List<TraceComparison.Difference> unexplained = cmp.unexplained(IntendedDifferences.forQemu(IntendedDifferences.SVQ, series));
        assertTrue(unexplained.isEmpty(), "undocumented differences from QEMU " + series + "'s SVQ migration: "
                + unexplained.stream().map(TraceComparison.Difference::describe).toList()
                + "\nQEMU " + cmp.qemu() + "\nvdpactl " + cmp.vdpactl() + "\norder QEMU " + TraceComparison.labels(cmp.qemuOrder())
                + "\norder vdpactl " + TraceComparison.labels(cmp.vdpactlOrder()));
    }
}
