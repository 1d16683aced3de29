package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HTML reports as a person sees them: rendered by headless Chromium at a phone's width (375 px)
 * and a wide screen's (1400 px), measured by a script injected into a copy of each report, and kept
 * as screenshots under target/browser/. Checks that the downtime fills the timeline, that the
 * histograms of equal values (the virtual clock) or of one iteration are one centred bar with its count and value, that the
 * destination's preparation is drawn apart and labelled "not downtime", that nothing sticks out of
 * the window (the page never scrolls sideways), and that no local path, user or host name is in the
 * reports. Without a Chromium binary the tests are aborted with the reason (scripts/test installs it).
 */
class ReportInBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path OUT = Path.of("target", "browser");
    private static final int SCREENSHOT_HEIGHT = 2400;
    private static final Pattern MEASUREMENTS = Pattern.compile("<pre id=\"measurements\">(.*?)</pre>", Pattern.DOTALL);

    private static final Map<String, JsonNode> MEASURED = new HashMap<>();

    @TempDir
    static Path dir;

    static Path rehearsalReport;
    static Path fleetReport;
    static Path state;

    @BeforeAll
    static void writeReports() throws Exception {
        Files.createDirectories(OUT);
        state = dir.resolve("state-of-" + System.getProperty("user.name") + ".json");
        rehearsalReport = dir.resolve("rehearsal.html");
        CliRun r = RehearseCommandTest.run("--backend", "fake", "--fake-clock", "virtual", "--fake-state", state.toString(),
                "rehearse", "--iterations", "12", "--report", rehearsalReport.toString());
        assertEquals(0, r.exitCode(), r.err());
        // three hosts, one of which differs (serial, 6.1): the fleet report flags it
        List<String> docs = new ArrayList<>();
        docs.add(rehearseJson("rack1-node1", "6.12", "parallel"));
        docs.add(rehearseJson("rack1-node2", "6.12", "parallel"));
        docs.add(rehearseJson("rack2-node9", "6.1", "serial"));
        fleetReport = dir.resolve("fleet.html");
        List<String> merge = new ArrayList<>(List.of("report", "merge", "--html", fleetReport.toString()));
        merge.addAll(docs);
        // the migration compatibility of every ordered pair of the three hosts (the 6.1 host lacks 6.12's GUEST_TSO4/6)
        List<String> hosts = List.of("rack1-node1", "rack1-node2", "rack2-node9");
        List<String> kernels = List.of("6.12", "6.12", "6.1");
        for (int i = 0; i < hosts.size(); i++) {
            for (int j = 0; j < hosts.size(); j++) {
                if (i != j) {
                    merge.add("--check");
                    merge.add(migrateCheck(hosts.get(i), kernels.get(i), hosts.get(j), kernels.get(j)));
                }
            }
        }
        CliRun m = CliRun.of(merge.toArray(String[]::new));
        assertEquals(0, m.exitCode(), m.err());
    }

    private static String migrateFacts(String host, String kernel) throws IOException {
        Path file = dir.resolve(host + "-facts.json");
        if (!Files.exists(file)) {
            CliRun r = CliRun.of("--backend", "fake", "--fake-kernel", kernel, "--fake-state", dir.resolve(host + "-facts-state.json").toString(),
                    "--json", "migrate", "facts", "--host", host, "--qemu-version", "10.0.13");
            assertEquals(0, r.exitCode(), r.err());
            Files.writeString(file, r.out());
        }
        return file.toString();
    }

    private static String migrateCheck(String src, String srcKernel, String dst, String dstKernel) throws IOException {
        CliRun r = CliRun.of("--backend", "fake", "--fake-state", dir.resolve("checker-state.json").toString(), "--json", "migrate", "check",
                "mlx5-0", "vdpa0", "--source", migrateFacts(src, srcKernel), "--dest", migrateFacts(dst, dstKernel));
        assertTrue(r.exitCode() == 0 || r.exitCode() == 10, r.err());
        Path file = Files.writeString(dir.resolve("check-" + src + "-" + dst + ".json"), r.out());
        return file.toString();
    }

    private static String rehearseJson(String host, String kernel, String strategy) throws IOException {
        CliRun r = RehearseCommandTest.run("--backend", "fake", "--fake-clock", "virtual", "--fake-kernel", kernel,
                "--fake-state", dir.resolve(host + "-state.json").toString(), "--json", "rehearse", "--iterations", "3",
                "--strategy", strategy);
        assertEquals(0, r.exitCode(), r.err());
        ObjectNode doc = (ObjectNode) JSON.readTree(r.out());
        doc.put("host", host);
        Path file = dir.resolve(host + ".json");
        Files.writeString(file, JSON.writeValueAsString(doc));
        return file.toString();
    }

    @ParameterizedTest(name = "{0} px")
    @ValueSource(ints = {375, 1400})
    void theDowntimeFillsTheTimelineThePreparationIsApartAndNothingOverflows(int width) throws Exception {
        JsonNode m = measure(rehearsalReport, "rehearsal", width);
        assertFits(m, width);
        JsonNode t = m.path("timeline");
        assertTrue(t.isObject(), "no visible timeline: " + m);
        assertEquals(width < 600 ? "timeline narrow" : "timeline wide", t.path("svgClass").asText(), "the drawing for this width");
        assertTrue(t.path("svgRight").asDouble() <= width, "timeline wider than the window: " + t);
        assertTrue(t.path("downtimeBars").asInt() > 0, t.toString());
        double share = t.path("downtimeShare").asDouble();
        assertTrue(share >= 0.80, "the downtime phases cover " + share + " of the timeline's width, want >= 0.80: " + t);
        JsonNode gaps = t.path("preparationGaps");
        assertEquals(1, gaps.size(), "the reset of the migration window drawn apart: " + t);
        assertTrue(gaps.get(0).path("text").asText().contains("not downtime"), t.toString());
        assertTrue(gaps.get(0).path("text").asText().contains("reset"), t.toString());
        assertEquals(4, t.path("preparationBars").asInt(), "one hatched reset per device: " + t);
    }

    /**
     * pipelined: each device goes through its phases without waiting, so a device whose reset takes time (vdpa0's, 3 ms
     * here) resets while the mlx5 devices are still suspending and saving: its hatched bar stands on the downtime axis
     * (no break can take it off) and was drawn there without a word. Now such bars are outlined in dashes and a note
     * under the figure, legible at phone width, says what they are.
     */
    @ParameterizedTest(name = "{0} px")
    @ValueSource(ints = {375, 1400})
    void inPipelinedThePreparationOnTheDowntimeAxisIsMarkedAndExplained(int width) throws Exception {
        Path report = dir.resolve("pipelined.html");
        if (!Files.exists(report)) {
            Path slowReset = Files.writeString(dir.resolve("slow-reset.json"), "[{\"device\": \"vdpa0\", \"call\": \"reset\", \"delay_ms\": 3}]");
            CliRun r = RehearseCommandTest.run("--backend", "fake", "--fake-clock", "virtual", "--fake-state",
                    dir.resolve("pipelined-state.json").toString(), "--fake-faults", slowReset.toString(), "rehearse", "--strategy",
                    "pipelined", "--iterations", "3", "--report", report.toString(), "vdpa0", "mlx5-0", "mlx5-1");
            assertEquals(0, r.exitCode(), r.err());
        }
        JsonNode m = measure(report, "pipelined", width);
        assertFits(m, width);
        JsonNode t = m.path("timeline");
        assertTrue(t.path("overlapBars").asInt() > 0, "preparation bars during other devices' downtime: " + t);
        assertEquals(t.path("overlapBars").asInt(), t.path("overlapBarsDashed").asInt(), "each of them outlined in dashes: " + t);
        JsonNode note = m.path("prepOverlapNote");
        assertTrue(note.isObject(), "no visible note under the timeline: " + m);
        assertTrue(note.path("text").asText().contains("preparation, not downtime"), note.toString());
        assertTrue(note.path("text").asText().contains("vdpa0 reset"), "names the bar: " + note);
        assertTrue(note.path("fontPx").asDouble() >= 12, "legible: " + note);
        assertTrue(note.path("top").asDouble() >= t.path("bottom").asDouble(), "under the figure: " + note + " " + t);
        assertTrue(note.path("right").asDouble() <= width && note.path("height").asDouble() > 0, note.toString());
        // the default strategy's resets do not overlap anyone's downtime: no note there
        assertTrue(measure(rehearsalReport, "rehearsal", width).path("prepOverlapNote").isMissingNode());
    }

    @Test
    void aTallTimelineHasItsTimeAxisAtTheTopToo() throws Exception {
        Path report = dir.resolve("sixty-four.html");
        Path sixtyFour = ManyDevicesResourceLimitTest.stateWithMlx5Devices(dir.resolve("sixty-four-state.json"), 64);
        CliRun r = RehearseCommandTest.run("--backend", "fake", "--fake-clock", "virtual", "--fake-state", sixtyFour.toString(),
                "rehearse", "--devices", "64", "--queue-pairs", "1", "--memory", "1G", "--iterations", "1", "--report", report.toString());
        assertEquals(0, r.exitCode(), r.err());
        JsonNode t = measure(report, "rehearsal-64", 1400).path("timeline");
        assertTrue(t.path("height").asDouble() > 900, "a tall timeline: " + t);
        assertTrue(t.path("topAxisLabels").asInt() >= 3, "time labels above the rows: " + t);
        assertTrue(t.path("topAxisOffset").asDouble() < 30, "at the top of the drawing: " + t);
        // a short one keeps its single axis under the rows
        assertEquals(0, measure(rehearsalReport, "rehearsal", 1400).path("timeline").path("topAxisLabels").asInt());
    }

    @ParameterizedTest(name = "{0} px")
    @ValueSource(ints = {375, 1400})
    void onTheVirtualClockEveryHistogramIsOneBarWithItsCountValueAndPercentiles(int width) throws Exception {
        // every iteration of the virtual clock takes the same time: no range to bin
        assertOneValueHistograms(measure(rehearsalReport, "rehearsal", width), 12, "ms (12 iterations, all equal)");
    }

    @Test
    void aSingleIterationsHistogramsShowItsValue() throws Exception {
        Path report = dir.resolve("one-iteration.html");
        CliRun r = RehearseCommandTest.run("--backend", "fake", "--fake-clock", "virtual", "--fake-state",
                dir.resolve("one-iteration-state.json").toString(), "rehearse", "--iterations", "1", "--report", report.toString());
        assertEquals(0, r.exitCode(), r.err());
        JsonNode m = measure(report, "rehearsal-one-iteration", 375);
        assertFits(m, 375);
        assertOneValueHistograms(m, 1, "ms (1 iteration)");
    }

    /** Every histogram one bar in the middle of its axis, its count on it, its value under it, one percentile mark, no text on another. */
    private static void assertOneValueHistograms(JsonNode m, int count, String caption) {
        JsonNode hists = m.path("histograms");
        assertTrue(hists.size() >= 8, "the downtime and each phase: " + hists);
        for (JsonNode h : hists) {
            String what = h.path("title").asText() + ": " + h;
            assertTrue(h.path("oneValue").asBoolean(), what);
            assertEquals(1, h.path("bars").asInt(), what);
            assertTrue(Math.abs(h.path("barCenterOffset").asDouble()) < 0.02, "the bar in the middle of the axis: " + what);
            assertTrue(h.path("barShare").asDouble() >= 0.1, "a bar wide enough to see: " + what);
            assertEquals(List.of(Integer.toString(count)), texts(h.path("barCounts")), what);
            assertEquals(1, h.path("xticks").size(), "the value, once: " + what);
            assertTrue(h.path("xticks").get(0).asText().matches("\\d+\\.\\d\\d"), what);
            assertEquals(List.of("p50 = p90 = p99"), texts(h.path("percentiles")), what);
            assertEquals(caption, h.path("caption").asText(), what);
            assertEquals(0, h.path("overlaps").size(), "texts drawn over each other: " + what);
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @ParameterizedTest(name = "{0} px")
    @ValueSource(ints = {375, 1400})
    void theFleetReportFitsAndFlagsTheHostThatDiffers(int width) throws Exception {
        JsonNode m = measure(fleetReport, "fleet", width);
        assertFits(m, width);
        // the 6.1 host also brings its own mlx5_vdpa's preset (mlx5-pre612): strategy, kernel and preset differ
        assertEquals(3, m.path("differingCells").asInt(), "rack2-node9's strategy, kernel and preset flagged: " + m);
        // one drawing of the bars shown at each width, its host names legible on a phone
        assertEquals(1, m.path("fleetCharts").asInt(), m.toString());
        assertTrue(m.path("fleetLabelMinPx").asDouble() >= 12, "host names on screen at " + m.path("fleetLabelMinPx") + " px, want >= 12");
    }

    @ParameterizedTest(name = "{0} px")
    @ValueSource(ints = {375, 1400})
    void theCompatibilityMatrixShowsTheWorstVerdictPerHostPairWithItsReasons(int width) throws Exception {
        JsonNode m = measure(fleetReport, "fleet", width);
        assertFits(m, width);
        // a 6.12 guest's GUEST_TSO4/6 block both moves to the 6.1 host; every other move migrates (with warnings: no guest ran)
        assertEquals(2, m.at("/matrixCells/blocked").asInt(), m.toString());
        assertEquals(4, m.at("/matrixCells/warnings").asInt(), m.toString());
        assertEquals(0, m.at("/matrixCells/compatible").asInt(), m.toString());
        assertEquals(6, m.path("matrixCellsWithReasons").asInt(), "every checked cell names its reasons on hover: " + m);
        assertTrue(m.path("reasonRows").asInt() >= 6, "the reasons table lists them: " + m);
    }

    @Test
    void noLocalPathUserOrHostNameInTheReports() throws Exception {
        for (Path report : List.of(rehearsalReport, fleetReport)) {
            String html = Files.readString(report);
            for (String local : localNames()) {
                assertFalse(html.contains(local), report.getFileName() + " contains '" + local + "'");
            }
        }
    }

    /** What is this machine's and this user's own: the state file, the temporary directory, $HOME, the user, the host. */
    private static List<String> localNames() throws IOException {
        List<String> names = new ArrayList<>(List.of(state.toString(), dir.toString(), System.getProperty("user.home") + "/",
                "/" + System.getProperty("user.name") + "/", "state-of-" + System.getProperty("user.name")));
        String host = InetAddress.getLocalHost().getHostName();
        if (host.length() >= 4 && !host.equals("localhost")) {
            names.add(host);
        }
        return names;
    }

    private static void assertFits(JsonNode m, int width) {
        assertEquals(width, m.path("innerWidth").asInt(), "the browser's window is not the width asked for: " + m);
        assertTrue(m.path("scrollWidth").asInt() <= width, "the page scrolls sideways at " + width + " px: " + m);
        assertEquals(0, m.path("overflowing").size(), "elements stick out of the window: " + m.path("overflowing"));
    }

    /**
     * Renders {@code report} at {@code width} px, keeps a screenshot, and returns what the measuring script found in a
     * copy of it. The report is shown in an iframe of that width: headless Chromium does not make its window narrower
     * than 500 px, and the script checks the width it got.
     */
    private static JsonNode measure(Path report, String name, int width) throws Exception {
        // one Chromium run per report and width, whichever tests ask
        JsonNode known = MEASURED.get(name + "-" + width);
        if (known == null) {
            known = render(report, name, width);
            MEASURED.put(name + "-" + width, known);
        }
        return known;
    }

    private static JsonNode render(Path report, String name, int width) throws Exception {
        String chromium = chromium().orElse(null);
        assumeTrue(chromium != null, "MISSING TOOL: no Chromium (chromium, chromium-browser) on PATH, so the browser test of the"
                + " HTML reports did not run; install it (apt-get install chromium; scripts/test does) or set VDPACTL_CHROMIUM");
        String script;
        try (InputStream in = ReportInBrowserTest.class.getResourceAsStream("measure-layout.js")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String html = Files.readString(report);
        Path shown = Files.writeString(OUT.resolve(name + ".html"), html);
        Path measured = Files.writeString(OUT.resolve(name + "-measured.html"),
                html.replace("</body>", "<script>\n" + script + "</script>\n</body>"));
        int window = Math.max(width, 500);
        Path png = OUT.resolve(name + "-" + width + ".png");
        run(chromium, window, SCREENSHOT_HEIGHT, List.of("--screenshot=" + png.toAbsolutePath()),
                OUT.resolve(name + "-" + width + "-screenshot.log"), frame(name + "-" + width + "-frame.html", shown, width,
                        SCREENSHOT_HEIGHT));
        cropToWidth(png, width);
        String dom = run(chromium, window, 900, List.of("--dump-dom", "--virtual-time-budget=10000"),
                OUT.resolve(name + "-" + width + "-dom.log"), frame(name + "-" + width + "-measure.html", measured, width, 900));
        Matcher mm = MEASUREMENTS.matcher(dom);
        assertTrue(mm.find() && !mm.group(1).isBlank(), "the measuring script posted nothing; DOM: " + dom);
        return JSON.readTree(mm.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"));
    }

    /** A page that shows {@code page} in an iframe {@code width} px wide and keeps what it posts. */
    private static Path frame(String name, Path page, int width, int height) throws IOException {
        return Files.writeString(OUT.resolve(name), "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"/></head>"
                + "<body style=\"margin:0\"><iframe src=\"" + page.getFileName() + "\" style=\"border:0;display:block;width:" + width
                + "px;height:" + height + "px\"></iframe><pre id=\"measurements\"></pre><script>"
                + "addEventListener('message', function (e) { document.getElementById('measurements').textContent = e.data; });"
                + "</script></body></html>\n");
    }

    private static void cropToWidth(Path png, int width) throws IOException {
        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue(image != null && image.getWidth() >= width, "no screenshot " + png);
        if (image.getWidth() > width) {
            ImageIO.write(image.getSubimage(0, 0, width, image.getHeight()), "png", png.toFile());
        }
    }

    private static String run(String chromium, int width, int height, List<String> mode, Path log, Path page) throws Exception {
        Path profile = Files.createTempDirectory(dir, "chromium-profile");
        List<String> cmd = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile, "--window-size=" + width + "," + height,
                "--force-device-scale-factor=1"));
        cmd.addAll(mode);
        cmd.add(page.toAbsolutePath().toUri().toString());
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        byte[] out;
        try (InputStream in = p.getInputStream()) {
            out = in.readAllBytes();
        }
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("chromium did not finish in 120 s: " + cmd);
        }
        assertEquals(0, p.exitValue(), "chromium failed, see " + log + ": " + cmd);
        return new String(out, StandardCharsets.UTF_8);
    }

    private static Optional<String> chromium() {
        String given = System.getenv("VDPACTL_CHROMIUM");
        if (given != null && !given.isBlank()) {
            return Optional.of(given);
        }
        for (String name : List.of("chromium", "chromium-browser")) {
            for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
                Path p = Path.of(d.isEmpty() ? "." : d, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(p.toString());
                }
            }
        }
        return Optional.empty();
    }
}
