package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.orchestra.DeviceReport;
import org.vdpactl.orchestra.Phase;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Timeline;
import org.vdpactl.report.HtmlReport;
import org.vdpactl.report.JsonDocument;
import org.vdpactl.report.RehearsalJson;
import org.vdpactl.report.RehearsalReportsTest;
import org.vdpactl.report.RunInfo;
import org.vdpactl.sim.SimulatedHost;
import org.vdpactl.sys.Errno;
import org.vdpactl.time.VirtualClock;

/**
 * A PARTIAL rehearsal says what it has (issue 36 item 4): no completed iteration gives null statistics (not zeros a
 * threshold would pass), the HTML's downtime is "until the failure", the timeline promises grey rollback bars only
 * where the rollback made calls (and then draws them), and a device the window went through is not "untouched".
 */
class PartialRehearsalReportTest {
    private static final RunInfo INFO = new RunInfo(true, "fake (test)", "virtual", "vdpactl rehearse");

    private static RehearsalResult failingAt(String call) {
        try (SimulatedHost h = SimulatedHost.withModels(3, 2, "mlx5-612", new VirtualClock(), (p, preset, pairs, clock) -> new RehearsalReportsTest.Costs(),
                List.of(FaultRule.errnoAt("mlx5-1", call, 1, Errno.EIO)))) {
            return h.rehearsal().run(RehearsalPlan.builder(h.devices()).queuePairs(1).iterations(1).build());
        }
    }

    /**
     * The window's last call on mlx5-1: its last data queue's enable after the CVQ state load (mlx5-612 offers
     * ENABLE_AFTER_DRIVER_OK; 2 pairs + CVQ = 5 enables at the bring-up, 5 in the window). There is no RESUME to
     * fail any more: the window restarts every device from reset.
     */
    private static final String LAST_WINDOW_CALL = "VHOST_VDPA_SET_VRING_ENABLE";
    private static final int LAST_WINDOW_CALL_OCCURRENCE = 10;

    private static RehearsalResult failingAtTheLastWindowCall() {
        try (SimulatedHost h = SimulatedHost.withModels(3, 2, "mlx5-612", new VirtualClock(), (p, preset, pairs, clock) -> new RehearsalReportsTest.Costs(),
                List.of(FaultRule.errnoAt("mlx5-1", LAST_WINDOW_CALL, LAST_WINDOW_CALL_OCCURRENCE, Errno.EIO)))) {
            return h.rehearsal().run(RehearsalPlan.builder(h.devices()).queuePairs(1).iterations(1).build());
        }
    }

    @Test
    void noCompletedIterationGivesNullStatisticsThatValidate() {
        RehearsalResult r = failingAtTheLastWindowCall();
        assertEquals(RehearsalResult.Outcome.PARTIAL, r.outcome());
        JsonNode doc = JsonDocument.REHEARSAL.of(RehearsalJson.of(r, INFO));
        JsonNode downtime = doc.at("/statistics/downtime");
        assertEquals(0, downtime.get("count").asInt());
        for (String k : List.of("min_ms", "p50_ms", "p90_ms", "p99_ms", "max_ms", "mean_ms")) {
            assertTrue(downtime.get(k).isNull(), k + " of nothing measured must be null: " + downtime);
        }
        assertEquals(List.of(), CliJsonValidation.validate(JsonDocument.REHEARSAL.fileName(), doc));
        ((ObjectNode) downtime).put("p50_ms", 0.0);
        assertFalse(CliJsonValidation.validate(JsonDocument.REHEARSAL.fileName(), doc).isEmpty(),
                "a zero p50 over no iteration is refused by the schema");
    }

    @Test
    void htmlSaysUntilTheFailureAndPromisesNoRollbackItDoesNotDraw() {
        RehearsalResult r = failingAtTheLastWindowCall();
        Timeline shown = r.lastIteration();
        assertTrue(shown.downtimeNanos() > 0, "the window ran until the failure");
        assertEquals(1, shown.spans().stream().filter(s -> s.failed() && s.phase() == Phase.CVQ_MQ
                && s.call().startsWith(LAST_WINDOW_CALL)).count(), "the failure is the last data queue's enable: " + shown.spans());
        assertTrue(shown.spans().stream().noneMatch(s -> s.phase() == Phase.ROLLBACK), "a failed last enable leaves nothing to roll back");
        String html = HtmlReport.render(r, INFO);
        assertTrue(html.contains("<dt>Downtime until the failure</dt>"), "the downtime is labelled as cut short");
        assertFalse(html.contains("<dt>Downtime</dt>"));
        assertFalse(html.contains("rollback in grey"), "no grey bar to promise");
        assertFalse(html.contains("fill=\"" + Phase.ROLLBACK.color() + "\""));
        for (DeviceReport d : r.devices()) {
            assertFalse(d.detail().equals("untouched"), d.name() + " went through the window: " + d.detail());
        }
    }

    @Test
    void whereTheRollbackMadeCallsTheyAreDrawnInGrey() {
        RehearsalResult r = failingAt("VHOST_VDPA_SUSPEND");
        assertTrue(r.lastIteration().spans().stream().anyMatch(s -> s.phase() == Phase.ROLLBACK));
        String html = HtmlReport.render(r, INFO);
        assertTrue(html.contains("rollback in grey"));
        assertTrue(html.contains("fill=\"" + Phase.ROLLBACK.color() + "\""), "the grey rollback bars are drawn");
        assertTrue(html.contains("<dt>Downtime until the failure</dt>"));
    }
}
