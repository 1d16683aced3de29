package org.vdpactl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's test count is generated from docs/test-records/mvn-test.json, and
 * scripts/check-surefire-reports --record fails a run whose total is not the recorded one: the
 * count in the README cannot drift from what Surefire runs.
 */
class SurefireTestRecordTest {
    private static final String LOG = """
            [INFO] Results:
            [INFO]
            [INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0
            """;

    @Test
    void aRunWhoseTotalIsNotTheRecordedOneFails(@TempDir Path dir) throws Exception {
        Path reports = reports(dir);
        Path record = dir.resolve("record.json");
        Run written = run(dir, "--write-record", record.toString());
        assertEquals(0, written.status, written.output);
        String json = Files.readString(record);
        assertTrue(json.contains("\"total\": 5"), json);
        assertTrue(json.contains("\"m/tests\": 5"), json);

        Run same = run(dir, "--record", record.toString());
        assertEquals(0, same.status, same.output);

        Files.writeString(record, json.replace("\"total\": 5", "\"total\": 6"));
        Run other = run(dir, "--record", record.toString());
        assertEquals(1, other.status, other.output);
        assertTrue(other.output.contains("this run ran 5 tests, the record " + record + " (and the README's count"), other.output);
        assertTrue(Files.exists(reports));
    }

    /**
     * Issue 36 item 17: without Chromium, 7 browser tests were skipped and the build passed while the README counted
     * them as run. Skips are counted and printed by reason; one for a missing tool fails the check (scripts/test
     * installs the tools) unless --allow-missing-tools.
     */
    @Test
    void skipsAreCountedAndOneForAMissingToolFailsTheRun(@TempDir Path dir) throws Exception {
        Path reports = reports(dir);
        Files.writeString(reports.resolve("TEST-a.B.xml"), """
                <testsuite name="a.B" tests="5" skipped="2">
                  <testcase classname="a.B" name="one"/>
                  <testcase classname="a.B" name="asRoot"><skipped message="ABORTED: needs root"/></testcase>
                  <testcase classname="a.B" name="inChromium"><skipped message="Assumption failed: MISSING TOOL: no Chromium on PATH"/></testcase>
                </testsuite>""");
        Run strict = run(dir);
        assertEquals(1, strict.status, strict.output);
        assertTrue(strict.output.contains("skipped: 2 of 5 tests (they did not run; 3 ran)"), strict.output);
        assertTrue(strict.output.contains("1 x ABORTED: needs root"), strict.output);
        assertTrue(strict.output.contains("1 tests skipped because a tool is missing"), strict.output);
        Run allowed = run(dir, "--allow-missing-tools");
        assertEquals(0, allowed.status, allowed.output);
        assertTrue(allowed.output.contains("a.B.inChromium"), "the skipped test is named: " + allowed.output);
        Files.writeString(reports.resolve("TEST-a.B.xml"), """
                <testsuite name="a.B" tests="5" skipped="1">
                  <testcase classname="a.B" name="asRoot"><skipped message="ABORTED: needs root"/></testcase>
                </testsuite>""");
        Run rootOnly = run(dir);
        assertEquals(0, rootOnly.status, "a skip that is no missing tool is counted, not failed: " + rootOnly.output);
        assertTrue(rootOnly.output.contains("skipped: 1 of 5 tests"), rootOnly.output);
    }

    /** Every skip message of a test that needs a program names it as a missing tool, so that the check can find it. */
    @Test
    void testsThatNeedAToolSaySoInTheirSkipMessage() throws Exception {
        Path tests = RepositoryRoot.find().resolve("src/tests/src/test/java/org/vdpactl/cli");
        for (String f : List.of("ReportInBrowserTest.java", "UnprivilegedFakeProcessTest.java", "RealUser.java")) {
            String src = Files.readString(tests.resolve(f));
            assertTrue(src.contains("\"MISSING TOOL: "), f + " skips for a missing tool without saying so");
        }
    }

    /**
     * Every module runs its own tests: the log has one summary per module, the reports lie in each module's
     * folder, and the record keeps each module's count beside the total; a run whose total differs names the
     * modules whose counts moved.
     */
    @Test
    void theModulesAreSummedAndRecordedEachWithItsCount(@TempDir Path dir) throws Exception {
        reports(dir);
        Path other = Files.createDirectories(dir.resolve("m/abi/target/surefire-reports"));
        Files.writeString(other.resolve("TEST-c.D.xml"), "<testsuite name=\"c.D\" tests=\"3\"/>");
        Files.writeString(dir.resolve("mvn.log"), LOG.replace("Tests run: 5", "Tests run: 3") + LOG);
        Path record = dir.resolve("record.json");
        Run written = run(dir, "--write-record", record.toString());
        assertEquals(0, written.status, written.output);
        String json = Files.readString(record);
        assertTrue(json.contains("\"total\": 8"), json);
        assertTrue(json.contains("\"m/abi\": 3") && json.contains("\"m/tests\": 5"), json);

        Files.writeString(record, json.replace("\"total\": 8", "\"total\": 9").replace("\"m/abi\": 3", "\"m/abi\": 4"));
        Run other9 = run(dir, "--record", record.toString());
        assertEquals(1, other9.status, other9.output);
        assertTrue(other9.output.contains("m/abi: 4 recorded, 3 run"), other9.output);
        assertFalse(other9.output.contains("m/tests:"), other9.output);
    }

    /**
     * Surefire 3.5 reports a JUnit @ParameterizedClass (a conformance suite run once per kernel profile) with
     * tests="0" on the suite and every invocation's testcases inside: they are counted.
     */
    @Test
    void aParameterisedClassIsCountedByItsTestcases(@TempDir Path dir) throws Exception {
        Path reports = reports(dir);
        Files.writeString(reports.resolve("TEST-a.B.xml"), """
                <testsuite name="a.B" tests="0">
                  <testcase name="one" classname="a.B[1]"/><testcase name="two" classname="a.B[1]"/>
                  <testcase name="one" classname="a.B[2]"/><testcase name="two" classname="a.B[2]"/>
                  <testcase name="one" classname="a.B[3]"/>
                </testsuite>
                """);
        Run r = run(dir);
        assertEquals(0, r.status, r.output);
        assertTrue(r.output.contains("5 tests in 1 files, the same as Surefire's total"), r.output);
    }

    @Test
    void theReadmeBlockShowsTheRecordedTotal() throws Exception {
        Path root = RepositoryRoot.find();
        Process p = new ProcessBuilder(root.resolve("scripts/test-record").toString(), "block", "readme-tests")
                .directory(root.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        String record = Files.readString(root.resolve("docs/test-records/mvn-test.json"));
        String total = record.replaceAll("(?s).*\"total\": (\\d+).*", "$1");
        assertTrue(out.contains(String.format("**%,d tests**", Integer.parseInt(total))), out);
    }

    private static Path reports(Path dir) throws Exception {
        Path reports = Files.createDirectories(dir.resolve("m/tests/target/surefire-reports"));
        Files.writeString(reports.resolve("TEST-a.B.xml"), "<testsuite name=\"a.B\" tests=\"5\"/>");
        Files.writeString(dir.resolve("mvn.log"), LOG);
        return reports;
    }

    private record Run(int status, String output) {
    }

    private static Run run(Path dir, String... options) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(RepositoryRoot.find().resolve("scripts/check-surefire-reports").toString(),
                dir.resolve("mvn.log").toString(), dir.toString()));
        cmd.addAll(List.of(options));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return new Run(p.exitValue(), out);
    }
}
