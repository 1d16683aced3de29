package org.vdpactl.bench.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Part 2's hot path in docs/benchmarks.md: the steps from C's loop in the JMH process to the library, what each adds
 * (ns per message, medians of the record's raw samples), and issue 37's goal judged against C in the same JVM.
 */
class IotlbHotPathTest {
    @TempDir
    Path tmp;

    @Test
    void theBlockTakesTheHotPathApartStepByStepAndJudgesItAgainstCInTheSameJvm() throws IOException {
        Path records = tmp.resolve("records");
        BenchRecord.write(results("2026-12-06T20:30Z", 250, 262, 266, 270, 272.5), records);

        String block = BenchReport.block(records, "iotlb");

        assertTrue(block.contains("| `cLoopInJvm` | C's loop"), block);
        assertTrue(block.contains("| 250 | - | 1.00x |"), "the yardstick, ÷ itself:\n" + block);
        assertTrue(block.contains("| 262 | +12.0 | 1.05x |"), "the downcall adds 12 ns:\n" + block);
        assertTrue(block.contains("| 266 | +4.00 | 1.06x |"), "the thread-local lookup:\n" + block);
        assertTrue(block.contains("| 270 | +4.00 | 1.08x |"), "encoding:\n" + block);
        assertTrue(block.contains("| 273 | +2.50 | 1.09x |"), "the library's own work:\n" + block);
        String goals = BenchReport.block(records, "goals");
        String row = goals.lines().filter(l -> l.contains("C's loop in the same JVM")).findFirst().orElseThrow();
        assertTrue(row.contains("1.09x (273 vs 250 ns per message)") && row.contains("**MET**"), row);
        assertTrue(row.contains("against the C program with 2 threads 1.05x"), "the C process beside it, shown:\n" + row);

        Path slow = tmp.resolve("records-slow");
        BenchRecord.write(results("2026-12-06T20:40Z", 250, 262, 266, 270, 300), slow);
        row = BenchReport.block(slow, "goals").lines().filter(l -> l.contains("C's loop in the same JVM")).findFirst().orElseThrow();
        assertTrue(row.contains("1.20x") && row.contains("**NOT MET**"), row);
    }

    /**
     * A record of the handle's own writer (`ffmEncodeWriteOwnErrno` ran): the steps skip the thread-local lookup, which
     * the library no longer makes, and the goal names its floor, the bare downcall ÷ C.
     */
    @Test
    void aRecordOfTheOwnWriterStepsPastTheThreadLocalAndTheGoalNamesItsFloor() throws IOException {
        Path dir = results("2026-12-07T15:30Z", 250, 262, 266, 270, 272.5);
        String json = Files.readString(dir.resolve("jmh-iotlb-1.json"));
        Files.writeString(dir.resolve("jmh-iotlb-1.json"), json.substring(0, json.lastIndexOf(']')) + ","
                + jmh(Map.of("ffmEncodeWriteOwnErrno", 268.0)).substring(1));
        Path records = tmp.resolve("records-own");
        BenchRecord.write(dir, records);

        String block = BenchReport.block(records, "iotlb");
        assertTrue(block.contains("| `ffmEncodeWriteOwnErrno` | `IotlbCodec.encode` of each message from the plans' columns | 268 | +6.00 | 1.07x |"),
                "encoding, added to the bare downcall:\n" + block);
        assertTrue(block.contains("| 273 | +4.50 | 1.09x |"), "the library's own work, after encoding:\n" + block);
        assertFalse(block.contains("| `ffmWriteThreadLocal` | the seam's lookup"), "no thread-local step:\n" + block);
        String row = BenchReport.block(records, "goals").lines().filter(l -> l.contains("C's loop in the same JVM")).findFirst()
                .orElseThrow();
        assertTrue(row.contains("its floor, the bare FFM downcall with errno captured and the message encoded once (`ffmWrite`), 1.05x"),
                row);
    }

    /** A record without the yardstick (before it existed) shows neither the breakdown nor the goal. */
    @Test
    void aRecordWithoutTheYardstickShowsNeither() throws IOException {
        Path records = tmp.resolve("records-old");
        Path results = results("2026-12-06T12:17Z", 250, 262, 266, 270, 272.5);
        Files.writeString(results.resolve("jmh-iotlb-1.json"), jmh(Map.of("encodeWriteDevNull", 272.5)));
        BenchRecord.write(results, records);
        assertFalse(BenchReport.block(records, "iotlb").contains("step by step"), BenchReport.block(records, "iotlb"));
        assertFalse(BenchReport.block(records, "goals").contains("C's loop in the same JVM"));
    }

    /** A results directory of scripts/bench where only the IOTLB part ran, its steps at these ns per message. */
    private Path results(String date, double cInJvm, double ffm, double threadLocal, double encode, double library) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("results-" + date.replace(":", "")));
        Files.writeString(dir.resolve("machine.properties"), BenchResultsFixture.machineProperties(date) + "foreign.cpu.iotlb=0.0100\n");
        Files.writeString(dir.resolve("run.properties"), "command=scripts/bench --only ioctl,iotlb\njmh_options=-f 1\nrounds=1\nreduced=no\n");
        Files.writeString(dir.resolve("commands.properties"), "build=mvn -Pbench package\n");
        Files.writeString(dir.resolve("c-ioctl.txt"), "iotlbDevNull 220.00\niotlbDevNullThreaded 260.00\n");
        Map<String, Double> ns = new LinkedHashMap<>();
        ns.put("cLoopInJvm", cInJvm);
        ns.put("ffmWrite", ffm);
        ns.put("ffmWriteThreadLocal", threadLocal);
        ns.put("ffmEncodeWrite", encode);
        ns.put("encodeWriteDevNull", library);
        Files.writeString(dir.resolve("jmh-iotlb-1.json"), jmh(ns));
        return dir;
    }

    /** JMH's JSON for throughput benchmarks of IotlbBench: three samples of messages per second each. */
    private static String jmh(Map<String, Double> nsPerMessage) {
        StringBuilder b = new StringBuilder("[");
        nsPerMessage.forEach((method, ns) -> {
            String rate = String.format(Locale.ROOT, "%.6f", 1e9 / ns);
            b.append(b.length() > 1 ? "," : "").append("""
                    {"benchmark": "org.vdpactl.bench.IotlbBench.%s", "jvm": "/x/jdk/bin/java",
                     "primaryMetric": {"scoreUnit": "ops/s", "rawData": [[%s, %s, %s]]}, "secondaryMetrics": {}}
                    """.formatted(method, rate, rate, rate));
        });
        return b.append("]").toString();
    }
}
