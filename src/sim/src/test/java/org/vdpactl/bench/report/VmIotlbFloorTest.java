package org.vdpactl.bench.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Part 5's IOTLB goal in docs/benchmarks.md names its floor: the same messages written into the device by a bare FFM
 * downcall (VhostDeviceBench.iotlbMapUnmapBareFfm) ÷ the C writer, beside the library's ratio; a record without that
 * benchmark shows the goal as before.
 */
class VmIotlbFloorTest {
    @TempDir
    Path tmp;

    @Test
    void theLanesIotlbGoalNamesTheBareDowncallsRatioToC() throws IOException {
        Path records = tmp.resolve("records");
        BenchRecord.write(results("2026-12-07T15:30Z", true), records);
        String row = goalRow(records);
        assertTrue(row.contains("1.20x medians") && row.contains("**NOT MET**"), row);
        assertTrue(row.contains("its floor, the same messages encoded and written by a bare FFM downcall with errno captured"
                + " (`iotlbMapUnmapBareFfm`), 1.08x"), row);
    }

    @Test
    void aRecordWithoutTheFloorShowsTheGoalAlone() throws IOException {
        Path records = tmp.resolve("records-old");
        BenchRecord.write(results("2026-12-07T14:00Z", false), records);
        String row = goalRow(records);
        assertTrue(row.contains("1.20x medians"), row);
        assertFalse(row.contains("its floor"), row);
    }

    private static String goalRow(Path records) throws IOException {
        return BenchReport.block(records, "goals").lines().filter(l -> l.contains("IOTLB into the real device")).findFirst()
                .orElseThrow();
    }

    /** A results directory of scripts/bench in which only the VM part ran: C at 1000 ns per message, Java at 1200. */
    private Path results(String date, boolean withFloor) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("results-" + date.replace(":", "")));
        Files.writeString(dir.resolve("machine.properties"), BenchResultsFixture.machineProperties(date));
        Files.writeString(dir.resolve("run.properties"), "command=scripts/bench --only vm\njmh_options=-f 1\nrounds=1\nreduced=no\n");
        Files.writeString(dir.resolve("commands.properties"), "build=mvn -Pbench package\n");
        Files.writeString(dir.resolve("vm-c.txt"), "iotlbMapUnmap 1000.00\niotlbMapUnmapThreaded 1050.00\n");
        String json = "[" + run("iotlbMapUnmap", 1200) + (withFloor ? "," + run("iotlbMapUnmapBareFfm", 1080) : "") + "]";
        Files.writeString(dir.resolve("vm-jmh-1.json"), json);
        return dir;
    }

    /** JMH's JSON of one VhostDeviceBench benchmark: three samples of ns per message. */
    private static String run(String method, double ns) {
        return """
                {"benchmark": "org.vdpactl.bench.VhostDeviceBench.%s", "jvm": "/x/jdk/bin/java",
                 "primaryMetric": {"scoreUnit": "ns/op", "rawData": [[%s, %s, %s]]}, "secondaryMetrics": {}}
                """.formatted(method, ns, ns, ns);
    }
}
