package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.testsupport.SeparateJvm;

/**
 * 256 devices on the fake: the rehearsal and the bench need about 1,300 file descriptors (a node and
 * four eventfds per device), more than a soft RLIMIT_NOFILE of 1024. The fake process takes the real
 * process's limits (HotSpot raised the soft one to the hard one), so the runs work where the hard limit
 * allows them, and under a low hard limit (prlimit) they are refused before any device is touched,
 * with exit 9 (RESOURCE_LIMIT) and one line saying what is needed and how to get it.
 */
class ManyDevicesResourceLimitTest {
    private static final int DEVICES = 256;

    @TempDir
    Path dir;

    /** A state with {@code n} mlx5 devices of 16 queue pairs, each on its own PCI function. */
    static Path stateWithMlx5Devices(Path file, int n) throws IOException {
        List<String> mgmt = new ArrayList<>();
        List<String> devs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String pci = String.format("0000:%02x:%02x.%d", 8 + i / 64, (i / 8) % 8, i % 8);
            mgmt.add("{\"profile\":\"mlx5\",\"bus\":\"pci\",\"dev\":\"" + pci + "\"}");
            devs.add("{\"name\":\"mlx5-" + i + "\",\"mgmtdev\":\"pci/" + pci + "\",\"minor\":" + i + ",\"maxVqPairs\":16}");
        }
        return Files.writeString(file, "{\"version\":1,\"mgmtdevs\":[" + String.join(",", mgmt) + "],\"devices\":["
                + String.join(",", devs) + "],\"kernel\":\"6.12\"}");
    }

    @Test
    void aRehearsalOf256DevicesRuns() throws IOException {
        Path state = stateWithMlx5Devices(dir.resolve("state.json"), DEVICES);
        CliRun r = RehearseReliabilityTest.onVirtualFake(state, "--json", "rehearse", "--devices", String.valueOf(DEVICES));
        assertEquals(ExitCode.OK.code(), r.exitCode(), r.err());
        assertTrue(r.out().contains("\"mlx5-255\""), "every device rehearsed");
    }

    @Test
    void aBenchOf256DevicesRuns() {
        CliRun r = RehearseCommandTest.run("--json", "bench", "orchestration", "--sizes", String.valueOf(DEVICES), "--queue-pairs", "1",
                "--memory", "1G", "--repeat", "1", "--serial-repeat", "1");
        assertEquals(ExitCode.OK.code(), r.exitCode(), r.err());
        assertTrue(r.out().contains("\"devices\":" + DEVICES), r.out());
    }

    @Test
    void underALowHardLimitTheRehearsalIsRefusedBeforeAnyDeviceIsTouched() throws Exception {
        Path state = stateWithMlx5Devices(dir.resolve("state.json"), DEVICES);
        String before = Files.readString(state);
        CliRun r = underHardLimit(1024, "--backend", "fake", "--fake-clock", "virtual", "--fake-state", state.toString(),
                "rehearse", "--devices", String.valueOf(DEVICES));
        assertRefused(r, "rehearsing 256 devices needs about ");
        assertEquals(before, Files.readString(state), "no device was touched, nothing was recorded");
    }

    @Test
    void underALowHardLimitTheBenchIsRefusedBeforeItsFirstRun() throws Exception {
        CliRun r = underHardLimit(1024, "--json", "bench", "orchestration", "--sizes", "1," + DEVICES, "--queue-pairs", "1");
        assertRefused(r, "benchmarking 256 devices needs about ");
        assertTrue(r.out().contains("\"name\":\"RESOURCE_LIMIT\""), "the --json error document: " + r.out());
        assertTrue(!r.err().contains("warming up"), "refused before the first run: " + r.err());
    }

    private static void assertRefused(CliRun r, String start) {
        assertEquals(ExitCode.RESOURCE_LIMIT.code(), r.exitCode(), r.err());
        assertEquals(1, r.err().lines().count(), "one line: " + r.err());
        String line = r.err().strip();
        assertTrue(line.startsWith("vdpactl: " + start), line);
        assertTrue(line.contains("but RLIMIT_NOFILE is 1024 (hard 1024)") && line.contains("ulimit -Hn 2048"), line);
        assertTrue(!line.contains("EMFILE") && !line.contains("internal error"), line);
    }

    /** vdpactl in its own JVM whose RLIMIT_NOFILE is {@code limit}, soft and hard (prlimit(1), util-linux). */
    private CliRun underHardLimit(int limit, String... args) throws Exception {
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        Process p = SeparateJvm.start(List.of("prlimit", "--nofile=" + limit + ":" + limit, "--"), Main.class, Map.of(), out, err, args);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "still running after 120 s");
        return CliRun.checked(args, p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
