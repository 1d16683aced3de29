package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code vdpactl report merge} end to end: real {@code rehearse --json} documents of three "hosts"
 * (fake backend, different guest memory sizes so that their downtimes differ; one host PARTIAL through
 * an injected SUSPEND failure) merged as text, JSON and HTML; bad input files give one line and exit 2.
 */
class ReportMergeCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path small;
    static Path large;
    static Path failed;

    @BeforeAll
    static void rehearseThreeHosts() throws Exception {
        small = rehearse("h-small", "1G", null);
        large = rehearse("h-large", "64G", null);
        Path faults = dir.resolve("faults.json");
        Files.writeString(faults, "{\"rules\":[{\"device\":\"mlx5-1\",\"call\":\"VHOST_VDPA_SUSPEND\",\"errno\":\"EIO\"}]}");
        failed = rehearse("h-failed", "4G", faults);
        // the module's "host" field names the host, not the file name
        ObjectNode doc = (ObjectNode) JSON.readTree(large.toFile());
        doc.put("host", "rack2-node7");
        Files.writeString(large, JSON.writeValueAsString(doc));
    }

    private static Path rehearse(String host, String memory, Path faults) throws Exception {
        // the virtual clock: the hosts' order must follow from the modelled work, not from this machine's load
        List<String> args = new ArrayList<>(List.of("--backend", "fake", "--fake-clock", "virtual",
                "--fake-state", dir.resolve(host + "-state.json").toString()));
        if (faults != null) {
            args.addAll(List.of("--fake-faults", faults.toString()));
        }
        args.addAll(List.of("--json", "rehearse", "--devices", "2", "--memory", memory));
        CliRun r = RehearseCommandTest.run(args.toArray(String[]::new));
        assertEquals(faults == null ? 0 : 6, r.exitCode(), r.err());
        Path file = dir.resolve(host + ".json");
        Files.writeString(file, r.out());
        return file;
    }

    private static CliRun merge(String... args) {
        List<String> full = new ArrayList<>(List.of("report", "merge"));
        full.addAll(List.of(args));
        return CliRun.of(full.toArray(String[]::new));
    }

    private static double downtime(Path file) throws Exception {
        return JSON.readTree(file.toFile()).path("statistics").path("downtime").path("p50_ms").asDouble();
    }

    @Test
    void jsonListsTheHostsSlowestFirstWithTheirNamesAndThePhaseSpread() throws Exception {
        assertTrue(downtime(large) > downtime(small), "64 GiB of guest memory maps longer than 1 GiB");
        CliRun r = merge("--json", small.toString(), failed.toString(), large.toString());
        assertEquals(0, r.exitCode(), r.err());
        JsonNode doc = JSON.readTree(r.out());
        assertEquals("vdpactl.fleet", doc.path("schema").asText());
        assertEquals(1, doc.path("schema_version").asInt());
        assertEquals("simulated", doc.path("figures").asText());
        JsonNode hosts = doc.path("hosts");
        assertEquals(3, hosts.size());
        assertEquals("rack2-node7", hosts.get(0).path("host").asText(), "slowest first, named by its 'host' field");
        assertEquals("h-small", hosts.get(1).path("host").asText(), "named by its file");
        assertEquals("h-failed", hosts.get(2).path("host").asText(), "PARTIAL without a completed window: last");
        assertEquals(downtime(large), hosts.get(0).path("downtime_ms").asDouble(), 1e-9);
        assertTrue(hosts.get(2).path("downtime_ms").isNull());
        assertEquals("partial", hosts.get(2).path("outcome").asText());
        assertTrue(hosts.get(2).path("failure").asText().contains("VHOST_VDPA_SUSPEND on mlx5-1 failed with EIO"),
                hosts.get(2).toString());
        assertEquals(List.of("h-failed"), List.of(JSON.treeToValue(doc.path("partial"), String[].class)));
        JsonNode downtimeSpread = doc.path("downtime");
        assertEquals(2, downtimeSpread.path("hosts").asInt());
        assertEquals("rack2-node7", downtimeSpread.path("slowest_host").asText());
        assertEquals(downtime(small), downtimeSpread.path("min_ms").asDouble(), 1e-9);
        assertEquals(downtime(large), downtimeSpread.path("max_ms").asDouble(), 1e-9);
        List<String> phases = new ArrayList<>();
        doc.path("phases").forEach(p -> phases.add(p.path("name").asText()));
        // no resume: the window restarts every device from reset and resumes none (QEMU 10.0 neither)
        assertEquals(List.of("suspend", "save_state", "reset", "configure", "set_map", "driver_ok", "cvq_mq"), phases);
        JsonNode setMap = doc.path("phases").get(4);
        assertEquals("rack2-node7", setMap.path("slowest_host").asText(), "the larger memory maps longer");
        assertTrue(setMap.path("max_ms").asDouble() > setMap.path("min_ms").asDouble());
    }

    @Test
    void textHasARowPerHostSlowestFirstTheSpreadAndThePartialHost() {
        CliRun r = merge(small.toString(), large.toString(), failed.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).startsWith("Fleet rehearsal: 3 hosts, SIMULATED"), lines.get(0));
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("host ")).findFirst().orElseThrow());
        assertTrue(lines.get(header + 1).startsWith("rack2-node7 "), r.out());
        assertTrue(lines.get(header + 2).startsWith("h-small "), r.out());
        assertTrue(lines.get(header + 3).startsWith("h-failed "), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("downtime ") && l.endsWith("rack2-node7")), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("set_map ")), r.out());
        assertTrue(r.out().contains("PARTIAL (rolled back"), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("  h-failed: suspend: VHOST_VDPA_SUSPEND")), r.out());
    }

    @Test
    void htmlIsWellFormedSelfContainedWithARowAndABarPerHost() throws Exception {
        Path html = dir.resolve("fleet.html");
        CliRun r = merge("--html", html.toString(), small.toString(), large.toString(), failed.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("fleet report written to " + html), r.err());
        String text = Files.readString(html);
        assertFalse(text.contains("<script") || text.contains("http://www.w3.org/1999") || text.contains("https://"),
                "no script, no external resource");
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        // the chart is drawn twice, wide and narrow (a phone's drawing, shown below 521 px): one bar per host in each
        NodeList svgs = doc.getElementsByTagName("svg");
        assertEquals(2, svgs.getLength(), "a wide and a narrow drawing");
        for (int i = 0; i < svgs.getLength(); i++) {
            var svg = (Element) svgs.item(i);
            assertEquals(2, svg.getElementsByTagName("rect").getLength(),
                    "one bar per host with a completed window in " + svg.getAttribute("class"));
        }
        NodeList rows = doc.getElementsByTagName("tr");
        int partialRows = 0;
        for (int i = 0; i < rows.getLength(); i++) {
            if ("partial".equals(((Element) rows.item(i)).getAttribute("class"))) {
                partialRows++;
                assertTrue(rows.item(i).getTextContent().startsWith("h-failed"));
            }
        }
        assertEquals(1, partialRows);
        assertTrue(text.contains("<td>rack2-node7</td>"));
    }

    /** A path named on the command line that does not exist is NOT_FOUND, input or output (README "Exit codes"). */
    @Test
    void aMissingFileIsOneLineAndExit3() {
        CliRun r = merge(small.toString(), dir.resolve("nope.json").toString());
        assertEquals(ExitCode.NOT_FOUND.code(), r.exitCode());
        assertEquals("vdpactl: " + dir.resolve("nope.json") + ": no such file", r.err().strip());
        assertEquals("", r.out());
    }

    @Test
    void aFileThatIsNotJsonOrNotARehearsalIsNamedAndNothingIsWritten() throws Exception {
        Path garbage = dir.resolve("garbage.json");
        Files.writeString(garbage, "{\"schema\": ");
        Path other = dir.resolve("other.json");
        Files.writeString(other, "{\"dev\":{}}");
        Path html = dir.resolve("never.html");
        for (Path bad : List.of(garbage, other)) {
            CliRun r = merge("--html", html.toString(), small.toString(), bad.toString());
            assertEquals(2, r.exitCode(), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("vdpactl: " + bad + ": not "), r.err());
            assertTrue(r.noStackTrace());
        }
        assertFalse(Files.exists(html));
    }

    @Test
    void twoDocumentsOfTheSameHostAreRefused() throws Exception {
        Path copy = Files.createDirectories(dir.resolve("again")).resolve("h-small.json");
        Files.copy(small, copy);
        CliRun r = merge(small.toString(), copy.toString());
        assertEquals(2, r.exitCode());
        assertTrue(r.err().strip().endsWith("host 'h-small' already given by " + small + " (one document per host)"), r.err());
    }

    @Test
    void aRehearsalOfAnotherSchemaVersionIsRefusedNamingTheFile() throws Exception {
        ObjectNode doc = (ObjectNode) JSON.readTree(small.toFile());
        doc.put("schema_version", 2);
        Path newer = Files.createDirectories(dir.resolve("v2")).resolve("h-newer.json");
        Files.writeString(newer, JSON.writeValueAsString(doc));
        CliRun r = merge(small.toString(), newer.toString());
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err());
        assertEquals("vdpactl: " + newer + ": rehearsal document of schema_version 2, this vdpactl reads version 1"
                + " (docs/json-schemas.md)", r.err().strip());
    }
}
