package org.vdpactl.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.fake.model.DriverModel;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.fake.model.OpCost;
import org.vdpactl.orchestra.Phase;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Span;
import org.vdpactl.orchestra.Timeline;
import org.vdpactl.sim.SimulatedHost;
import org.vdpactl.sys.Errno;
import org.vdpactl.time.VirtualClock;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The JSON document carries every span; the HTML report is well-formed, self-contained and shows every device and phase. */
public class RehearsalReportsTest {
    private static final RunInfo INFO = new RunInfo(true, "fake (test)", "virtual", "vdpactl rehearse --iterations 3");
    private static RehearsalResult completed;
    private static RehearsalResult failed;

    /** Costs that make every phase visible on the timeline. */
    public static final class Costs implements DriverModel {
        @Override
        public OpCost suspend() {
            return OpCost.ofMillis(2);
        }

        @Override
        public OpCost getVqState(int index) {
            return OpCost.ofMillis(0.2);
        }

        @Override
        public OpCost reset(boolean cleanMap) {
            return OpCost.ofMillis(5);
        }

        @Override
        public OpCost setMap(int asid, List<MapEntry> table) {
            return OpCost.ofMillis(table.isEmpty() ? 0 : 9);
        }

        @Override
        public OpCost setStatus(int oldStatus, int newStatus) {
            return OpCost.ofMillis(1);
        }

        @Override
        public OpCost resume() {
            return OpCost.ofMillis(1.5);
        }
    }

    private static RehearsalResult run(int iterations, FaultRule... faults) {
        try (SimulatedHost h = SimulatedHost.withModels(3, 2, "mlx5-612", new VirtualClock(), (p, preset, pairs, clock) -> new Costs(),
                List.of(faults))) {
            return h.rehearsal().run(RehearsalPlan.builder(h.devices()).queuePairs(1).iterations(iterations).build());
        }
    }

    @BeforeAll
    static void rehearse() {
        completed = run(3);
        failed = run(1, FaultRule.errnoAt("mlx5-1", "VHOST_VDPA_SUSPEND", 1, Errno.EBUSY));
    }

    @Test
    void jsonHasEverySpanOfEveryIteration() throws Exception {
        JsonNode doc = JsonDocument.REHEARSAL.of(RehearsalJson.of(completed, INFO));
        assertEquals("vdpactl.rehearsal", doc.get("schema").asText());
        assertEquals(1, doc.get("schema_version").asInt());
        assertTrue(doc.get("simulated").asBoolean());
        assertEquals("completed", doc.get("outcome").asText());
        assertEquals(3, doc.get("iterations").size());
        for (int i = 0; i < 3; i++) {
            Timeline t = completed.iterations().get(i);
            JsonNode it = doc.get("iterations").get(i);
            JsonNode spans = it.get("spans");
            assertEquals(t.spans().size(), spans.size(), "iteration " + i + " span count");
            Set<String> inJson = new HashSet<>();
            for (JsonNode s : spans) {
                inJson.add(s.get("device").asText() + "|" + s.get("phase").asText() + "|" + s.get("call").asText() + "|"
                        + (s.get("start_ns").asLong() + t.windowStart()) + "|" + s.get("duration_ns").asLong());
                assertEquals(s.get("end_ns").asLong() - s.get("start_ns").asLong(), s.get("duration_ns").asLong());
            }
            for (Span s : t.spans()) {
                assertTrue(inJson.contains(s.device() + "|" + s.phase().id() + "|" + s.call() + "|" + s.startNanos() + "|"
                        + s.durationNanos()), "span missing from JSON: " + s);
            }
            assertEquals(t.downtimeNanos() / 1e6, it.get("downtime_ms").asDouble(), 1e-9);
            long firstSuspend = Long.MAX_VALUE;
            for (JsonNode s : spans) {
                if (s.get("phase").asText().equals("suspend")) {
                    firstSuspend = Math.min(firstSuspend, s.get("start_ns").asLong());
                }
            }
            assertEquals(0, firstSuspend, "span times are relative to the first suspend");
        }
        assertEquals(completed.setupSpans().size(), doc.get("setup").size());
        assertEquals(3, doc.at("/statistics/downtime/count").asLong());
        assertTrue(doc.at("/statistics/phases").has("suspend"));
        assertEquals(3, doc.get("devices").size());
    }

    @Test
    void jsonOfAFailureNamesTheCallAndErrno() throws Exception {
        JsonNode doc = JsonDocument.REHEARSAL.of(RehearsalJson.of(failed, INFO));
        assertEquals("partial", doc.get("outcome").asText());
        assertEquals("mlx5-1", doc.at("/failure/device").asText());
        assertEquals("VHOST_VDPA_SUSPEND", doc.at("/failure/call").asText());
        assertEquals("EBUSY", doc.at("/failure/errno_name").asText());
        boolean failedSpan = false;
        for (JsonNode s : doc.at("/iterations/0/spans")) {
            failedSpan |= s.get("errno").asInt() == Errno.EBUSY && s.get("call").asText().equals("VHOST_VDPA_SUSPEND");
        }
        assertTrue(failedSpan);
        for (JsonNode d : doc.get("devices")) {
            assertEquals("RUNNING", d.get("state").asText(), d.toString());
        }
    }

    @Test
    void htmlIsWellFormedSelfContainedAndShowsEveryDeviceAndPhase() throws Exception {
        String html = HtmlReport.render(completed, INFO);
        assertSelfContained(html);
        assertTrue(html.contains("<dt>Window</dt><dd>migration -- starts at the first SUSPEND"), "window boundaries in the summary");
        assertTrue(html.contains("last window call, less the destination"), "downtime without the preparation");
        Document doc = parse(html);
        assertEquals("html", doc.getDocumentElement().getTagName());
        assertTrue(doc.getElementsByTagName("style").getLength() == 1);
        NodeList svgs = doc.getElementsByTagName("svg");
        Element timeline = (Element) svgs.item(0);
        assertEquals("timeline wide", timeline.getAttribute("class"));
        List<String> labels = texts(timeline, "dev");
        assertEquals(List.of("mlx5-0", "mlx5-1", "mlx5-2"), labels, "one row per device");
        Timeline shown = completed.iterations().get(1);
        NodeList rects = timeline.getElementsByTagName("rect");
        Set<String> bars = new HashSet<>();
        for (int i = 0; i < rects.getLength(); i++) {
            Element r = (Element) rects.item(i);
            NodeList title = r.getElementsByTagName("title");
            if (title.getLength() == 1) {
                String t = title.item(0).getTextContent();
                bars.add(t.substring(0, t.indexOf(':')));
            }
        }
        for (String d : shown.devices()) {
            for (Phase p : completed.plan().orderedPhases()) {
                if (shown.phase(p) != null) {
                    assertTrue(bars.contains(d + " " + p.label()), "no bar for " + d + " " + p.label() + " in " + bars);
                }
            }
        }
        assertTrue(svgs.getLength() >= 2, "histograms present");
        assertTrue(html.contains("SIMULATED"), "the fake's figures are labelled simulated");
    }

    @Test
    void htmlOfAFailureMarksTheFailedCall() throws Exception {
        String html = HtmlReport.render(failed, INFO);
        assertSelfContained(html);
        Document doc = parse(html);
        boolean marked = false;
        NodeList rects = doc.getElementsByTagName("rect");
        for (int i = 0; i < rects.getLength(); i++) {
            Element r = (Element) rects.item(i);
            if ("fail".equals(r.getAttribute("class"))) {
                marked |= r.getTextContent().contains("mlx5-1 VHOST_VDPA_SUSPEND failed: EBUSY");
            }
        }
        assertTrue(marked, "failed call marked on the timeline");
        assertTrue(html.contains("rollback"), "rollback shown");
    }

    @Test
    void textReportHasThePhaseTableAndTheDowntime() {
        String text = RehearsalText.render(completed, INFO);
        assertTrue(text.contains("Downtime (first suspend -> last window call, less the destination's preparation): "), text);
        assertTrue(text.contains("Window: migration -- starts at the first SUSPEND"), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("reset (preparation, not downtime) ")), text);
        assertTrue(text.contains("(simulated)"), text);
        for (String d : List.of("mlx5-0", "mlx5-1", "mlx5-2")) {
            assertTrue(text.lines().anyMatch(l -> l.startsWith("phase") && l.contains(d)), "device column " + d);
        }
        assertTrue(text.contains("over 3 iterations"), text);
        String failure = RehearsalText.render(failed, INFO);
        assertTrue(failure.contains("FAILED: mlx5-1: VHOST_VDPA_SUSPEND (suspend) failed: EBUSY"), failure);
    }

    static void assertSelfContained(String html) {
        String lower = html.toLowerCase(Locale.ROOT);
        assertFalse(lower.contains("http://") || lower.contains("https://"), "network URL in the report");
        assertFalse(lower.contains("<script"), "script in the report");
        // url(#id) points into the document itself (the SVG hatching); any other url( would load something
        assertFalse(lower.contains("<link") || lower.contains("@import") || lower.replace("url(#", "").contains("url("),
                "external resource");
        assertFalse(lower.contains(" src="), "external source");
    }

    static Document parse(String html) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> texts(Element svg, String cls) {
        List<String> out = new ArrayList<>();
        NodeList texts = svg.getElementsByTagName("text");
        for (int i = 0; i < texts.getLength(); i++) {
            Element t = (Element) texts.item(i);
            if (cls.equals(t.getAttribute("class"))) {
                out.add(t.getTextContent());
            }
        }
        return out;
    }
}
