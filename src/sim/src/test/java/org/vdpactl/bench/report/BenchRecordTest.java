package org.vdpactl.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/bench's records and what docs/benchmarks.md makes of them: one record per part that ran, with the
 * run's date, machine, command and parameters and the raw results, none of this machine's paths in it; the
 * document's block shows the latest record's figures, computed from the raw samples, and one history row per
 * record.
 */
class BenchRecordTest {
    @TempDir
    Path tmp;

    @Test
    void aRunWritesOneRecordPerPartThatRanWithoutThisMachinesPaths() throws IOException {
        Path results = results("2026-12-02T10:00Z", 100, 200, 300);
        Path records = tmp.resolve("records");

        List<Path> written = BenchRecord.write(results, records);

        assertEquals(List.of(records.resolve("netlink/20261202T1000Z.json")), written, "only the netlink part ran to the end");
        String json = Files.readString(written.getFirst());
        assertFalse(json.contains("/x/"), "no path of the measuring machine in the record:\n" + json);
        assertTrue(json.contains("$JAVA_HOME/bin/java"), json);
        assertTrue(json.contains("$BUILD/results/jmh-netlink-N.json"), json);
        BenchRecord r = BenchRecord.readAll(records, BenchPart.NETLINK).getFirst();
        assertEquals("2026-12-02T10:00Z", r.date());
        assertEquals("scripts/bench --only netlink --jmh-opts -f 1 -i 3", r.command());
        assertEquals("Test CPU", r.machine().get("cpu"));
        assertEquals("2", r.machine().get("cores"));
        assertEquals("Linux 6.12", r.machine().get("kernel"));
        assertEquals("Test JDK 25", r.machine().get("jdk"));
        assertEquals("yes: fewer iterations", r.parameters().get("reduced"));
        assertEquals("-f 1 -i 3", r.parameters().get("jmh_options"));
    }

    @Test
    void theBlockShowsTheLatestRecordAndTheHistoryOfAll() throws IOException {
        Path records = tmp.resolve("records");
        BenchRecord.write(results("2026-12-02T10:00Z", 100, 200, 300), records);
        BenchRecord.write(results("2026-12-03T09:30Z", 400, 500, 600), records);

        String block = BenchReport.block(records, "netlink");

        assertTrue(block.contains("**Latest run** (measured): 2026-12-03T09:30Z"), block);
        assertTrue(block.contains("| dump1000Devices | "), block);
        assertTrue(block.contains("| 400 / 500 / 600 us/op | 3 |"), "min / median / max of the latest raw samples:\n" + block);
        assertFalse(block.contains("100 / 200 / 300"), "the older run is history, not the latest:\n" + block);
        assertTrue(block.contains("| 2026-12-02T10:00Z | `abc1234` |"), block);
        assertTrue(block.contains("| 2026-12-03T09:30Z | `abc1234` |"), block);
        assertTrue(block.contains("200 us/op median"), "the older run's figure in its history row:\n" + block);
        assertTrue(block.indexOf("2026-12-02T10:00Z") < block.lastIndexOf("2026-12-03T09:30Z"), "oldest first");
        assertTrue(BenchReport.block(records, "ioctl").startsWith("No run of this part has written a record yet"));
    }

    /**
     * A part's record judges goals only when the part ran quiet (load average at most 1.5 before and after it,
     * as scripts/bench records it per part); several quiet records give the median run and the spread; a loaded
     * record is marked and leaves its goals at NO QUIET RECORD.
     */
    @Test
    void goalsAreJudgedByQuietRecordsOnlyAndShowTheMedianRunWithTheSpread() throws IOException {
        Path records = tmp.resolve("records");
        BenchRecord.write(loaded(results("2026-12-01T10:00Z", 100, 900, 1000), "3.2"), records);
        String goals = BenchReport.block(records, "goals");
        assertTrue(goals.contains("**NO QUIET RECORD**"), goals);
        assertTrue(goals.contains("900 us/op median") && goals.contains("LOADED"), "the latest loaded figure, marked:\n" + goals);
        assertTrue(BenchReport.block(records, "netlink").contains("3.2 / 0.7 (LOADED: above 1.5)"), BenchReport.block(records, "netlink"));

        BenchRecord.write(results("2026-12-02T10:00Z", 100, 200, 300), records);
        BenchRecord.write(results("2026-12-03T10:00Z", 100, 500, 600), records);
        // the latest quiet run is not the median one
        BenchRecord.write(results("2026-12-04T10:00Z", 100, 800, 900), records);
        BenchRecord.write(loaded(results("2026-12-05T10:00Z", 100, 50, 60), "1.6"), records);
        goals = BenchReport.block(records, "goals");
        String row = goals.lines().filter(l -> l.contains("dump of 1000 devices")).findFirst().orElseThrow();
        assertTrue(row.contains("500 us/op median"), "the median of the quiet runs' figures (200, 500, 800):\n" + row);
        assertTrue(row.contains("3 quiet runs, median 500, spread 200 to 800"), row);
        assertFalse(row.contains("2026-12-05") || row.contains("2026-12-01"), "a loaded run judges nothing:\n" + row);
        assertTrue(row.contains("**REPORTED**"), row);
    }

    /**
     * With the others' CPU share measured (foreign.cpu.PART), a part whose run's own JVMs left the load average high before and after
     * it is still quiet, and a part beside which other processes used more than 10 % of the CPUs is not, even when
     * the load average stayed low.
     */
    @Test
    void theOtherProcessesShareDecidesQuietWhereItWasMeasured() throws IOException {
        Path records = tmp.resolve("records-foreign");
        Path selfLoaded = results("2026-12-06T05:40Z", 100, 400, 500);
        Files.writeString(selfLoaded.resolve("machine.properties"), "load.before.netlink=1.9\nload.after.netlink=3.1\nforeign.cpu.netlink=0.0120\n",
                StandardOpenOption.APPEND);
        BenchRecord.write(selfLoaded, records);
        String goals = BenchReport.block(records, "goals");
        String row = goals.lines().filter(l -> l.contains("dump of 1000 devices")).findFirst().orElseThrow();
        assertFalse(row.contains("NO QUIET RECORD"), "its own load after the part does not make it loaded:\n" + row);
        assertTrue(BenchReport.block(records, "netlink").contains("other processes 1.2 % of the CPUs"), BenchReport.block(records, "netlink"));

        Path records2 = tmp.resolve("records-foreign-busy");
        Path busy = results("2026-12-06T06:40Z", 100, 400, 500);
        Files.writeString(busy.resolve("machine.properties"), "foreign.cpu.netlink=0.2500\n", StandardOpenOption.APPEND);
        BenchRecord.write(busy, records2);
        goals = BenchReport.block(records2, "goals");
        assertTrue(goals.contains("**NO QUIET RECORD**"), "others used 25 % of the CPUs beside it:\n" + goals);
        assertTrue(goals.contains("other processes above 10 %"), goals);
    }

    /**
     * A goal speaks for the code as it is: only the quiet runs of the code the latest quiet run measured judge it;
     * runs of older code (another fingerprint, or none: their commit) stay in the part's history.
     */
    @Test
    void goalsAreJudgedByTheQuietRunsOfTheLatestCodeOnly() throws IOException {
        Path records = tmp.resolve("records-code");
        BenchRecord.write(results("2026-12-01T10:00Z", 100, 900, 1000), records); // no fingerprint: its commit alone
        BenchRecord.write(withCode(results("2026-12-02T10:00Z", 100, 800, 900), "aaaaaaaaaaaa"), records);
        BenchRecord.write(withCode(results("2026-12-03T10:00Z", 100, 200, 300), "bbbbbbbbbbbb"), records);
        BenchRecord.write(withCode(results("2026-12-03T21:00Z", 100, 400, 500), "bbbbbbbbbbbb"), records);
        BenchRecord.write(loaded(withCode(results("2026-12-04T10:00Z", 100, 50, 60), "cccccccccccc"), "3.0"), records);

        String row = BenchReport.block(records, "goals").lines().filter(l -> l.contains("dump of 1000 devices")).findFirst()
                .orElseThrow();
        assertTrue(row.contains("2 quiet runs, median 400, spread 200 to 400"), "the two runs of code bbbb only:\n" + row);
        assertFalse(row.contains("2026-12-01") || row.contains("2026-12-02"), "older code judges nothing:\n" + row);
        assertFalse(row.contains("2026-12-04"), "the loaded run of newer code judges nothing either:\n" + row);
        assertTrue(BenchReport.block(records, "netlink").contains("| 2026-12-02T10:00Z |"), "older code stays in the history");
        assertEquals("bbbbbbbbbbbb", BenchRecord.readAll(records, BenchPart.NETLINK).get(2).codeKey());
        assertEquals("commit abc1234", BenchRecord.readAll(records, BenchPart.NETLINK).getFirst().codeKey());
    }

    /** Runs of the same code on two machines are not one figure's spread: the latest quiet run's machine judges. */
    @Test
    void goalsAreJudgedByTheRunsOfTheLatestMachineOnly() throws IOException {
        Path records = tmp.resolve("records-machine");
        BenchRecord.write(withCode(results("2026-12-02T10:00Z", 100, 800, 900), "bbbbbbbbbbbb"), records);
        BenchRecord.write(withCode(results("2026-12-02T21:00Z", 100, 700, 800), "bbbbbbbbbbbb"), records);
        Path other = withCode(results("2026-12-03T10:00Z", 100, 200, 300), "bbbbbbbbbbbb");
        Files.writeString(other.resolve("machine.properties"), "cpu=Another CPU\n", StandardOpenOption.APPEND);
        BenchRecord.write(other, records);

        String row = BenchReport.block(records, "goals").lines().filter(l -> l.contains("dump of 1000 devices")).findFirst()
                .orElseThrow();
        assertTrue(row.contains("200 us/op median") && row.contains("2026-12-03T10:00Z"), "the latest machine's run:\n" + row);
        assertFalse(row.contains("2 quiet runs") || row.contains("2026-12-02"), "another machine's runs judge nothing:\n" + row);
        assertEquals("bbbbbbbbbbbb on Another CPU, 2 cores",
                BenchRecord.readAll(records, BenchPart.NETLINK).getLast().judgedTogether());
    }

    private static Path withCode(Path results, String code) throws IOException {
        Files.writeString(results.resolve("machine.properties"), "code=" + code + "\n", StandardOpenOption.APPEND);
        return results;
    }

    /** Two runs that began in the same minute keep both records (the second as STAMP-2.json), and both are read. */
    @Test
    void twoRunsInOneMinuteKeepBothRecords() throws IOException {
        Path records = tmp.resolve("records-same-minute");
        BenchRecord.write(results("2026-12-06T07:00Z", 100, 300, 400), records);
        Path second = tmp.resolve("second");
        Files.createDirectories(second);
        try (var files = Files.list(results("2026-12-06T07:00Z", 100, 300, 400))) {
            for (Path f : files.toList()) {
                Files.copy(f, second.resolve(f.getFileName()));
            }
        }
        BenchRecord.write(second, records);
        assertTrue(Files.exists(records.resolve("netlink/20261206T0700Z.json")));
        assertTrue(Files.exists(records.resolve("netlink/20261206T0700Z-2.json")), "the second run's record beside the first");
        assertTrue(BenchReport.block(records, "goals").contains("2 quiet runs"), BenchReport.block(records, "goals"));
    }

    /**
     * The orchestration goals: the parallel goal is judged at the sizes where the machine's floor (the replay of the
     * model's waits, no call made) is within it, the floor is named where it is not, and vdpactl's own share of the
     * window, (parallel - replay) / cp, is judged at every size.
     */
    @Test
    void orchestrationJudgesParallelWhereTheFloorAllowsAndTheOwnShareEverywhere() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("results-orchestration"));
        Files.writeString(dir.resolve("machine.properties"), """
                date=2026-12-06T20:00Z
                commit=abc1234
                nproc=2
                cpu=Test CPU
                kernel=Linux 6.12
                jdk=Test JDK 25
                load.before.orchestration=0.5
                load.after.orchestration=0.6
                foreign.cpu.orchestration=0.0100
                """);
        Files.writeString(dir.resolve("run.properties"), "command=scripts/bench --only orchestration\norchestration_options=\nreduced=no\n");
        Files.writeString(dir.resolve("commands.properties"), "orchestration=scripts/vdpactl --json bench orchestration\n");
        Files.writeString(dir.resolve("orchestration.json"), """
                {"rows": [%s, %s]}
                """.formatted(orchestrationRow(64, 104, 101), orchestrationRow(256, 120, 112)));
        Path records = tmp.resolve("records-orchestration");
        BenchRecord.write(dir, records);

        String goals = BenchReport.block(records, "goals");
        String parallel = goals.lines().filter(l -> l.contains("parallel ≤ 1.05")).findFirst().orElseThrow();
        assertTrue(parallel.contains("worst 1.040 at 64 devices; the floor is above the goal at 256 (replay 1.120 × cp)"), parallel);
        assertTrue(parallel.contains("**MET**"), "256 devices' 1.20 is not judged against a floor of 1.12:\n" + parallel);
        String share = goals.lines().filter(l -> l.contains("own share")).findFirst().orElseThrow();
        assertTrue(share.contains("worst 8.0 % at 256 devices (64: 3.0 %, 256: 8.0 %)"), share);
        assertTrue(share.contains("**NOT MET**"), share);
        String serial = goals.lines().filter(l -> l.contains("serial ÷ parallel")).findFirst().orElseThrow();
        assertTrue(serial.contains("met where judged; the floor is below the goal at 256 (serial ÷ replay 228.6, the goal 230.4)"), serial);
        assertTrue(serial.contains("**MET**"), "at 256 even the replay gives serial only 229 × the 256 devices' 0.9 (230):\n" + serial);
        String block = BenchReport.block(records, "orchestration");
        assertTrue(block.contains("| 1.120 | 8.0 % |"), "replay ÷ cp and the own share beside each size:\n" + block);
    }

    private static String orchestrationRow(int devices, double parallelMs, double replayMs) {
        return """
                {"devices": %d, "vqs": 32, "critical_path_ms": 100, "pipelined_critical_path_ms": 100, "window": "in-place",
                 "parallel": {"min_ms": %s, "median_ms": %s, "max_ms": %s, "runs": 1},
                 "replay": {"min_ms": %s, "median_ms": %s, "max_ms": %s, "runs": 1},
                 "serial": {"min_ms": %d, "median_ms": %d, "max_ms": %d, "runs": 1},
                 "cpu_per_call_us": 1.0, "predicted_floor_ms": 101, "load_before": 0.5, "load_after": 0.6}
                """.formatted(devices, parallelMs, parallelMs, parallelMs, replayMs, replayMs, replayMs, devices * 100, devices * 100,
                devices * 100);
    }

    /** The results directory with the netlink part's own load before it set to {@code load}. */
    private static Path loaded(Path results, String load) throws IOException {
        Files.writeString(results.resolve("machine.properties"), "load.before.netlink=" + load + "\n", StandardOpenOption.APPEND);
        return results;
    }

    /**
     * A results directory of scripts/bench in which only the netlink part ran (one benchmark, three samples); the
     * VM part began but its JMH runs all failed.
     */
    private Path results(String date, double... samples) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("results-" + date.replace(":", "")));
        Files.writeString(dir.resolve("machine.properties"), BenchResultsFixture.machineProperties(date));
        Files.writeString(dir.resolve("run.properties"), """
                command=scripts/bench --only netlink --jmh-opts -f 1 -i 3
                jmh_options=-f 1 -i 3
                rounds=1
                reduced=no
                reduced.netlink=yes: fewer iterations
                """);
        Files.writeString(dir.resolve("commands.properties"), """
                build=mvn -Pbench package
                jmh.netlink=$JAVA_HOME/bin/java -cp x org.openjdk.jmh.Main NetlinkBench -rff /x/repo/target/bench/results/jmh-netlink-N.json
                """);
        Files.writeString(dir.resolve("jmh-netlink-1.json"), """
                [{"benchmark": "org.vdpactl.bench.NetlinkBench.dump1000Devices", "jvm": "/x/jdk/bin/java",
                  "primaryMetric": {"scoreUnit": "us/op", "rawData": [[%s, %s, %s]]}, "secondaryMetrics": {}}]
                """.formatted(samples[0], samples[1], samples[2]));
        Files.writeString(dir.resolve("jmh-netlink-1.json.log"), "log of /x/repo, not part of the record");
        // part 5 started but every JMH run failed (an empty result file): its C timings alone are no record
        Files.writeString(dir.resolve("vm-c.txt"), "getFeatures 780.05\n");
        Files.writeString(dir.resolve("vm-jmh-1.json"), "");
        return dir;
    }
}
