package org.vdpactl.report.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fleet report's per-host setup: differing hosts flagged in text and HTML, the slowest phase a downtime phase. */
class FleetSetupTest {
    private static HostRehearsal host(String name, String strategy, String kernel, String clock, double resetMs) {
        Map<String, Double> phases = new LinkedHashMap<>();
        phases.put("suspend", 2.5);
        phases.put("reset", resetMs);
        phases.put("set_map", 14.0);
        return new HostRehearsal(name, "/home/someone/reports/" + name + ".json", "completed", true,
                new HostSetup(strategy, "migration", kernel, "fake", "mlx5-612", clock), 3, 4, 40.0, phases, List.of("reset"),
                null, List.of());
    }

    private static HostRehearsal sized(String name, String window, boolean premap, long memoryGiB, int devices, int queuePairs,
                                       double downtimeMs, double resetMs) {
        Map<String, Double> phases = new LinkedHashMap<>();
        phases.put("suspend", 2.5);
        phases.put("reset", resetMs);
        phases.put("set_map", 14.0);
        return new HostRehearsal(name, name + ".json", "completed", true, new HostSetup("parallel", window, "6.12", "fake",
                "mlx5-612", "virtual", premap, memoryGiB << 30, devices, queuePairs), 3, devices, downtimeMs, phases,
                window.equals("migration") ? List.of("reset") : List.of(), null, List.of());
    }

    private static final FleetReport REPORT = FleetReport.merge(List.of(host("a", "parallel", "6.12", "virtual", 451),
            host("b", "parallel", "6.12", "virtual", 451), host("c", "serial", "6.1", "real", 80)));

    @Test
    void theHostsThatDifferAreNamedWithTheAttributeAndTheUsualValue() {
        assertEquals(List.of("strategy", "kernel", "clock"), REPORT.differences().stream().map(SetupDifference::attribute).toList());
        SetupDifference strategy = REPORT.differences().getFirst();
        assertEquals("parallel", strategy.usual());
        assertEquals(Map.of("c", "serial"), strategy.hosts());
        HostRehearsal c = REPORT.hosts().stream().filter(h -> h.host().equals("c")).findFirst().orElseThrow();
        assertEquals(List.of("strategy", "kernel", "clock"), c.differs());
        assertTrue(REPORT.hosts().stream().filter(h -> !h.host().equals("c")).allMatch(h -> h.differs().isEmpty()));
    }

    @Test
    void textAndHtmlFlagTheHostThatDiffers() {
        String text = FleetText.render(REPORT);
        assertTrue(text.contains("NOT LIKE FOR LIKE: the hosts differ in\n  strategy: serial on c (the others: parallel)\n"
                + "  kernel: 6.1 on c (the others: 6.12)\n  clock: real on c (the others: virtual)\n"), text);
        assertTrue(text.lines().anyMatch(l -> l.matches("c +serial \\* +migration +- +- +- +- +6\\.1 \\* +fake +mlx5-612 +real \\*")), text);
        String html = FleetHtml.render(REPORT);
        assertEquals(3, html.split("<td class=\"differs\">", -1).length - 1, html);
        assertTrue(html.contains("<li>strategy: serial on c (the others: parallel)</li>"), html);
    }

    @Test
    void theSameSetupEverywhereIsSaidAndNothingIsFlagged() {
        FleetReport same = FleetReport.merge(List.of(host("a", "parallel", "6.12", "virtual", 451),
                host("b", "parallel", "6.12", "virtual", 451)));
        assertEquals(List.of(), same.differences());
        assertTrue(FleetText.render(same).contains("Setup per host (the same on every host):"));
        String html = FleetHtml.render(same);
        assertTrue(!html.contains("class=\"differs") && !html.contains("NOT LIKE FOR LIKE"), html);
    }

    @Test
    void theSlowestPhaseIsADowntimePhaseNotThePreparation() {
        HostRehearsal a = REPORT.hosts().getFirst();
        assertEquals("set_map", a.slowestPhase(), "reset (451 ms) is the preparation, set_map (14 ms) the slowest downtime phase");
        assertTrue(FleetText.render(REPORT).contains("reset (not downtime)"));
    }

    @Test
    void theReportShowsTheFileNameNotItsDirectory() throws Exception {
        String json = new ObjectMapper().writeValueAsString(REPORT);
        assertTrue(json.contains("\"file\":\"a.json\""), json);
        assertTrue(!json.contains("/home/someone"), json);
    }

    @Test
    void hostsThatDifferInPremapMemoryDevicesOrQueuePairsAreNotTheSameSetup() {
        FleetReport r = FleetReport.merge(List.of(sized("big", "migration", false, 256, 4, 1, 549, 451),
                sized("pre", "migration", true, 4, 4, 1, 27, 451), sized("c", "migration", true, 4, 4, 1, 27, 451),
                sized("many", "migration", true, 4, 64, 8, 30, 451)));
        assertEquals(List.of("premap", "memory", "devices", "queue_pairs"),
                r.differences().stream().map(SetupDifference::attribute).toList());
        String text = FleetText.render(r);
        assertTrue(!text.contains("the same on every host"), text);
        assertTrue(text.contains("  premap: no on big (the others: yes)\n  memory: 256 GiB on big (the others: 4 GiB)\n"
                + "  devices: 64 on many (the others: 4)\n  queue_pairs: 8 on many (the others: 1)\n"), text);
        assertTrue(text.lines().anyMatch(l -> l.matches("big +parallel +migration +no \\* +256 GiB \\* +4 +1 +6\\.12 .*")), text);
        String html = FleetHtml.render(r);
        assertEquals(4, html.split("<td class=\"differs\">", -1).length - 1, html);
        assertTrue(!html.contains("the same on every host"), html);
    }

    @Test
    void noHostIsTheSlowestWhenAllTie() throws Exception {
        FleetReport r = FleetReport.merge(List.of(host("a", "parallel", "6.12", "virtual", 451),
                host("b", "parallel", "6.12", "virtual", 451)));
        assertEquals(null, r.downtime().slowestHost());
        String text = FleetText.render(r);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("downtime ") && l.endsWith("- (all tie)")), text);
        String json = new ObjectMapper().writeValueAsString(r);
        assertTrue(json.contains("\"slowestHost\":null"), json);
    }

    @Test
    void anInPlaceHostsResetIsDowntimeNotPartOfTheNotDowntimeColumn() {
        FleetReport r = FleetReport.merge(List.of(sized("mig", "migration", true, 4, 4, 1, 27, 451),
                sized("mig2", "migration", true, 4, 4, 1, 27, 400), sized("inplace", "in-place", true, 4, 4, 1, 480, 90)));
        Spread prep = r.phases().stream().filter(s -> s.name().equals("reset") && s.preparation()).findFirst().orElseThrow();
        Spread down = r.phases().stream().filter(s -> s.name().equals("reset") && !s.preparation()).findFirst().orElseThrow();
        assertEquals(2, prep.hosts());
        assertEquals(400.0, prep.minMs(), "the in-place host's 90 ms reset is not a preparation");
        assertEquals(1, down.hosts());
        assertEquals(90.0, down.maxMs());
        String text = FleetText.render(r);
        assertTrue(text.lines().anyMatch(l -> l.matches("reset \\(not downtime\\) +2 +400\\.00 .*")), text);
        assertTrue(text.lines().anyMatch(l -> l.matches("reset +1 +90\\.00 .*")), text);
        List<String> header = FleetText.hostTable(r).header();
        List<String> inPlaceRow = FleetText.hostTable(r).rows().stream().filter(row -> row.getFirst().equals("inplace"))
                .findFirst().orElseThrow();
        assertEquals("-", inPlaceRow.get(header.indexOf("reset (not downtime)")));
        assertEquals("90.00", inPlaceRow.get(header.indexOf("reset")));
    }
}
