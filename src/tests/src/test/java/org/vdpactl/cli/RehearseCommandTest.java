package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code vdpactl rehearse} through the CLI on the fake backend (its state file in a temp dir). */
class RehearseCommandTest {
    private final ObjectMapper json = new ObjectMapper();

    @TempDir
    Path dir;

    /** Runs vdpactl with the rehearse and bench commands registered (as Commands.all() lists them). */
    static CliRun run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        if (!cl.getSubcommands().containsKey("rehearse")) {
            cl.addSubcommand(new RehearseCommand());
        }
        if (!cl.getSubcommands().containsKey("bench")) {
            cl.addSubcommand(new BenchCommand());
        }
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return CliRun.checked(args, code, out.toString(), err.toString());
    }

    /** vdpactl on the fake backend with this test's own state file. */
    private CliRun fake(String... args) {
        List<String> full = new ArrayList<>(List.of("--backend", "fake", "--fake-state", dir.resolve("state.json").toString()));
        full.addAll(List.of(args));
        return run(full.toArray(String[]::new));
    }

    @Test
    void withoutArgumentsItRehearsesTheHardwareDevicesOfTheDefaultInventory() {
        CliRun r = fake("rehearse");
        assertEquals(0, r.exitCode(), r.err() + r.out());
        assertTrue(r.out().contains("4 devices (mlx5-0, mlx5-1, mlx5-2, mlx5-3)"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("CVQ MQ ")), "16 queue pairs replayed through the control queue");
        assertTrue(!r.out().contains("Note:"), r.out());
        assertTrue(r.out().contains("SIMULATED"), r.out());
        assertTrue(r.out().contains("Downtime (first suspend -> last window call, less the destination's preparation): "), r.out());
        assertTrue(r.out().contains("Window: migration -- starts at the first SUSPEND"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("reset (preparation, not downtime) ")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("phase") && l.contains("mlx5-3")), "per-device columns");
    }

    /** Issue 27: a kernel profile brings its own mlx5_vdpa's preset, and the header says which and why. */
    @Test
    void theKernelProfileBringsItsMlx5Preset() {
        CliRun old = fake("--fake-kernel", "6.1", "rehearse", "mlx5-0", "--iterations", "1");
        assertEquals(0, old.exitCode(), old.err() + old.out());
        assertTrue(old.out().contains("preset mlx5-61: the 6.1 kernel profile's mlx5_vdpa"), old.out());
        CliRun lts = run("--backend", "fake", "--fake-state", dir.resolve("lts.json").toString(), "--fake-kernel", "6.12",
                "rehearse", "mlx5-0", "--iterations", "1");
        assertEquals(0, lts.exitCode(), lts.err() + lts.out());
        assertTrue(lts.out().contains("preset mlx5-612: the 6.12 kernel profile's mlx5_vdpa"), lts.out());
    }

    @Test
    void jsonHasTheSpansAndReportIsWritten() throws Exception {
        Path report = dir.resolve("r.html");
        CliRun r = fake("--json", "rehearse", "vdpa0", "mlx5-1", "--strategy", "serial", "--iterations", "2", "--queue-pairs", "1",
                "--report", report.toString());
        assertEquals(0, r.exitCode(), r.err());
        JsonNode doc = json.readTree(r.out());
        assertEquals("completed", doc.get("outcome").asText());
        assertTrue(doc.get("simulated").asBoolean());
        assertEquals("serial", doc.at("/plan/strategy").asText());
        assertEquals(2, doc.get("iterations").size());
        assertTrue(doc.at("/iterations/0/spans").size() > 10);
        assertEquals("vdpa0", doc.at("/plan/sources/0").asText());
        assertEquals("migration", doc.at("/plan/window").asText());
        assertEquals("reset", doc.at("/plan/preparation/0").asText(), "a device that is its own destination: reset is preparation");
        boolean resetOutside = false;
        for (JsonNode ph : doc.at("/iterations/0/phases")) {
            if (ph.get("phase").asText().equals("reset")) {
                resetOutside = !ph.get("in_window").asBoolean();
            }
        }
        assertTrue(resetOutside, "the reset phase is marked outside the downtime");
        String html = Files.readString(report);
        assertTrue(html.startsWith("<!DOCTYPE html>") && html.contains("<svg"), "report written");
        assertTrue(!html.contains("http://") && !html.contains("https://"));
    }

    @Test
    void reportsLeaveOutLocalPathsUnlessReportDetailsIsGiven() throws Exception {
        Path report = dir.resolve("shared.html");
        Path state = dir.resolve("state.json");
        CliRun r = fake("--json", "rehearse", "--devices", "1", "--report", report.toString());
        assertEquals(0, r.exitCode(), r.err());
        JsonNode doc = json.readTree(r.out());
        assertEquals("vdpactl --backend fake --fake-state FILE --json rehearse --devices 1 --report FILE", doc.get("command").asText());
        // the backend is fields (docs/json-schemas.md); the sentence is the text and HTML reports'
        assertEquals("fake", doc.at("/backend/kind").asText());
        assertEquals("6.12", doc.at("/backend/kernel_profile").asText());
        assertEquals("mlx5-612", doc.at("/backend/presets/0").asText());
        assertTrue(Files.readString(report).contains("fake (simulated devices, Linux 6.12), preset mlx5-612"),
                "the HTML report's banner names the backend");
        for (String text : List.of(r.out(), Files.readString(report))) {
            assertTrue(!text.contains(dir.toString()), "a local path in " + text);
        }
        CliRun detailed = fake("--json", "rehearse", "--devices", "1", "--report=" + report, "--report-details");
        assertEquals(0, detailed.exitCode(), detailed.err());
        JsonNode full = json.readTree(detailed.out());
        assertTrue(full.get("command").asText().contains("--report=" + report), full.get("command").asText());
        assertTrue(full.get("backend").isObject() && !full.get("backend").toString().contains(state.toString()),
                "the JSON's backend is fields, never a local path: " + full.get("backend"));
        assertTrue(Files.readString(report).contains(state.toString()), "--report-details keeps the state file in the banner");
    }

    @Test
    void anInjectedFailureEndsPartialWithEveryDeviceReported() throws Exception {
        Path faults = Files.writeString(dir.resolve("faults.json"),
                "{\"rules\":[{\"device\":\"mlx5-2\",\"call\":\"VHOST_GET_VRING_BASE\",\"occurrence\":3,\"errno\":\"EIO\"}]}");
        CliRun r = fake("--fake-faults", faults.toString(), "rehearse", "--queue-pairs", "1");
        assertEquals(ExitCode.PARTIAL.code(), r.exitCode(), r.err() + r.out());
        assertTrue(r.out().contains("FAILED: mlx5-2: VHOST_GET_VRING_BASE vq2 (save state) failed: EIO"), r.out());
        for (String d : new String[] {"mlx5-0", "mlx5-1", "mlx5-2", "mlx5-3"}) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(d) && l.contains("running") && l.contains("mapped")),
                    d + " not reported running:\n" + r.out());
        }
    }

    @Test
    void separateDestinationsWithSplit() {
        CliRun r = fake("rehearse", "--split", "--queue-pairs", "1", "--premap");
        assertEquals(0, r.exitCode(), r.err() + r.out());
        assertTrue(r.out().contains("(mlx5-0, mlx5-1) -> (mlx5-2, mlx5-3)"), r.out());
        assertTrue(r.out().contains("premapped before the window"), r.out());
    }

    /**
     * --compare --json shows what the text shows: the held-out row (LM downtime #2) has no point (driver_ms null on
     * both presets: one prior of the model was derived from that figure), its interval and commands stay, and every
     * other row keeps its simulated times.
     */
    @Test
    void theComparisonsJsonCarriesNoPointForTheHeldOutRow() throws Exception {
        CliRun r = fake("--fake-clock", "virtual", "rehearse", "--compare", "mlx5-pre612,mlx5-612", "--devices", "1",
                "--memory", "1G", "--json");
        assertEquals(0, r.exitCode(), r.err());
        int heldOut = 0;
        for (JsonNode row : json.readTree(r.out()).get("upstream")) {
            boolean predicted = !row.get("interval").isNull();
            for (String side : List.of("before", "after")) {
                JsonNode driver = row.get(side).get("driver_ms");
                assertEquals(predicted, driver.isNull(), row.get("scenario") + " " + side + ": " + driver);
            }
            if (predicted) {
                heldOut++;
                assertEquals("HELD_OUT", row.get("published").get("use").asText());
                assertTrue(row.get("interval").get("before_ms").get("high").asDouble() > 0, row.toString());
                assertTrue(row.get("before").get("commands").asText().contains("suspend"), row.toString());
            }
        }
        assertEquals(1, heldOut, r.out());
    }

    @Test
    void badOptionsAreUsageErrors() {
        assertEquals(ExitCode.USAGE.code(), fake("rehearse", "--strategy", "sideways").exitCode());
        assertEquals(ExitCode.USAGE.code(), fake("rehearse", "--iterations", "0").exitCode());
        assertEquals(ExitCode.USAGE.code(), fake("rehearse", "--compare", "mlx5-612").exitCode());
        assertEquals(ExitCode.USAGE.code(), fake("rehearse", "--memory", "3X").exitCode());
        CliRun window = fake("rehearse", "--window", "legacy");
        assertEquals(ExitCode.USAGE.code(), window.exitCode(), window.err());
        assertTrue(window.err().contains("--window takes migration or in-place"), window.err());
        CliRun r = fake("rehearse", "--devices", "9");
        assertEquals(ExitCode.NOT_FOUND.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains("only 4 usable"), r.err());
    }
}
