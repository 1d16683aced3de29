package org.vdpactl.bench.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up part's floor of {@code --backend fake dev list} (scripts/lib/bench-startup.sh's floor-fake): the Goals
 * table reports it against the JVM hello and says how far the fake's command (variant build-archive) is above it, and
 * the part's block names what the floor program does.
 */
class StartupFloorReportTest {
    @TempDir
    Path tmp;

    @Test
    void theFakeFloorIsReportedBesideTheHelloAndTheFakeCommand() throws IOException {
        Path records = tmp.resolve("records");
        BenchRecord.write(results(), records);

        String goals = BenchReport.block(records, "goals");
        String row = goals.lines().filter(l -> l.contains("floor: a picocli command reading a state file")).findFirst()
                .orElseThrow(() -> new AssertionError("no row of the fake's floor:\n" + goals));
        assertTrue(row.contains("3.00x (CPU medians 90.0 vs 30.0 ms)"), "the floor ÷ the JVM hello:\n" + row);
        assertTrue(row.contains("`build-archive` ÷ this floor 2.67x"), "the fake's command (240 ms) ÷ the floor (90 ms):\n" + row);
        assertTrue(row.contains("**REPORTED**"), row);
        String block = BenchReport.block(records, "startup");
        assertTrue(block.contains("**floor-fake**: the floor of what `--backend fake dev list` must do"), block);
    }

    /** A results directory of scripts/bench in which only the start-up part ran, quiet, with three runs per variant. */
    private Path results() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("results"));
        Files.writeString(dir.resolve("machine.properties"), BenchResultsFixture.machineProperties("2026-12-06T20:00Z"));
        Files.writeString(dir.resolve("run.properties"), """
                command=scripts/bench --only startup
                startup_rounds=3
                startup_warmup=1
                reduced=no
                """);
        Files.writeString(dir.resolve("commands.properties"), """
                build=mvn -Pbench package
                startup=$JAVA_HOME/bin/java -cp x org.vdpactl.bench.startup.StartupTimer /x/repo/target/bench/results/startup.json 3 1
                """);
        Files.writeString(dir.resolve("startup-measured.txt"), "vdpactl --backend fake dev list\n");
        Files.writeString(dir.resolve("startup.json"), """
                {"rounds": 3, "warmupRounds": 1, "cpuTime": "user + system CPU of the command (bash times), ms",
                 "loadAverages": [0.5, 0.6, 0.7],
                 "variants": {
                  "hello": {"command": "java Hello", "millis": [30, 30, 30], "cpuMillis": [30, 30, 30], "exitStatus": "0"},
                  "default": {"command": "java -jar vdpactl.jar", "millis": [400, 400, 400], "cpuMillis": [500, 500, 500], "exitStatus": "0"},
                  "build-archive": {"command": "java -XX:AOTCache -jar vdpactl.jar", "millis": [200, 200, 200], "cpuMillis": [240, 240, 240],
                                    "exitStatus": "0"},
                  "floor-fake": {"command": "java FakeListHello", "millis": [70, 70, 70], "cpuMillis": [90, 90, 90], "exitStatus": "0"}
                 }}
                """);
        return dir;
    }
}
