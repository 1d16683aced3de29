package org.vdpactl.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lane's plumbing scripts, run as a user runs them: a skipped real-kernel lane exits non-zero,
 * the private unstable (and backports) sources list is derived from the machine's apt sources, a lane
 * record counts what the Surefire reports say, and the side-by-side downtime table and its goals come from
 * the downtime record.
 */
class LaneScriptsTest {
    private static final Path ROOT = Path.of("").toAbsolutePath();

    record Run(int code, String out, String err) {
    }

    private static Run run(Map<String, String> env, String... cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile());
        pb.environment().putAll(env);
        Path out = Files.createTempFile("lane-out", ".txt");
        Path err = Files.createTempFile("lane-err", ".txt");
        try {
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", cmd) + " did not finish");
            }
            return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Test
    void aLaneThatCannotRunIsASkipWithANonZeroStatus(@TempDir Path cache) throws Exception {
        Run r = run(Map.of("VDPACTL_QEMU", "vdpactl-no-such-qemu", "VDPACTL_CACHE_DIR", cache.toString(), "CI", "false"),
                "scripts/vm-lane", "--kernel", "6.12");
        assertEquals(77, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("REAL-KERNEL LANE SKIPPED (6.12): vdpactl-no-such-qemu not installed"), r.out());
    }

    /** scripts/bench --only with a name that is no part: refused in one line, exit 2, before anything is built or run. */
    @Test
    void anUnknownBenchPartIsAUsageError() throws Exception {
        Run r = run(Map.of(), "scripts/bench", "--only", "startup,vmonly", "--build-dir", "target/never-built");
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals("scripts/bench: --only: unknown part 'vmonly' (parts: ioctl,iotlb,netlink,classes,startup,orchestration,vm)",
                r.err().strip(), r.err());
        assertTrue(r.out().isEmpty(), r.out());
        assertTrue(Files.notExists(ROOT.resolve("target/never-built")), "nothing built");
    }

    @Test
    void anUnknownKernelInTheMatrixIsAUsageError() throws Exception {
        Run r = run(Map.of(), "scripts/test", "--kernels", "6.1,5.4");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("unknown kernel '5.4'"), r.err());
    }

    @Test
    void theUnstableSourcesListKeepsOnlyTheReleaseSuiteOfEveryFormat(@TempDir Path etc) throws Exception {
        Files.createDirectories(etc.resolve("apt/sources.list.d"));
        Files.writeString(etc.resolve("os-release"), "ID=debian\nVERSION_CODENAME=bookworm\n");
        Files.writeString(etc.resolve("apt/sources.list"), """
                # old style
                deb [arch=amd64 signed-by=/k/one.gpg] http://mirror.example/debian bookworm main contrib
                deb http://mirror.example/debian-security bookworm-security main
                deb-src http://src.example/debian bookworm main
                """);
        Files.writeString(etc.resolve("apt/sources.list.d/debian.sources"), """
                Types: deb
                URIs: http://other.example/debian
                Suites: bookworm bookworm-updates
                Components: main
                Signed-By: /k/two.gpg

                Types: deb
                URIs: http://disabled.example/debian
                Suites: bookworm
                Enabled: no
                """);
        Files.writeString(etc.resolve("apt/sources.list.d/third.sources.disabled"), "Types: deb\nURIs: http://x.example\nSuites: bookworm\n");
        Run r = run(Map.of(), "python3", "scripts/lib/apt-unstable-sources.py", "--etc", etc.toString());
        assertEquals(0, r.code(), r.err());
        List<String> debs = r.out().lines().filter(l -> l.startsWith("deb")).toList();
        assertEquals(List.of("deb [signed-by=/k/one.gpg] http://mirror.example/debian unstable main",
                "deb [signed-by=/k/two.gpg] http://other.example/debian unstable main"), debs);
    }

    @Test
    void theBackportsSourcesListIsTheReleaseSuiteWithItsBackportsSuite(@TempDir Path etc) throws Exception {
        Files.createDirectories(etc.resolve("apt"));
        Files.writeString(etc.resolve("os-release"), "ID=debian\nVERSION_CODENAME=bookworm\n");
        Files.writeString(etc.resolve("apt/sources.list"), """
                deb [signed-by=/k/one.gpg] http://mirror.example/debian bookworm main
                deb http://mirror.example/debian-security bookworm-security main
                """);
        Run r = run(Map.of(), "python3", "scripts/lib/apt-unstable-sources.py", "--suite", "{codename}-backports", "--etc", etc.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of("deb [signed-by=/k/one.gpg] http://mirror.example/debian bookworm-backports main"),
                r.out().lines().filter(l -> l.startsWith("deb")).toList());
    }

    /** One run of the downtime record: who, N, downtime. */
    private static String run(String who, int n, double ms) {
        return "{\"n\":" + n + ",\"iteration\":0,\"who\":\"" + who + "\",\"downtimeMs\":" + ms + "}";
    }

    @Test
    void theDowntimeTableHasMediansRatiosAndTheGoalsFromTheRecord(@TempDir Path dir) throws Exception {
        // N=1: QEMU 10 and 20 ms (median 15), serial 15 (1.00x), parallel 12 (0.80x);
        // N=2: QEMU 30, serial 36 (1.20x: over 1.1x), parallel 15 (0.50x: falls with N)
        List<String> runs = new ArrayList<>();
        runs.addAll(List.of(run("qemu stop/cont", 1, 10), run("qemu stop/cont", 1, 20), run("serial", 1, 15),
                run("parallel", 1, 12), run("qemu stop/cont", 2, 30), run("serial", 2, 36), run("parallel", 2, 15)));
        Files.writeString(dir.resolve("6.12-qemu-downtime.json"), "{\"schema\":\"vdpactl-qemu-downtime/1\",\"kernel\":\"6.12.118\","
                + "\"qemu\":\"10.0.2\",\"n\":[1,2],\"iterations\":2,\"runs\":[" + String.join(",", runs) + "]}");
        Run r = run(Map.of(), "python3", "scripts/lane-report", "block", "qemu-downtime", "--records", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("| 1 | 15.00 | – | – | – | 15.00 (1.00x) | 12.00 (0.80x) |"), r.out());
        assertTrue(r.out().contains("| 2 | 30.00 | – | – | – | 36.00 (1.20x) | 15.00 (0.50x) |"), r.out());
        assertTrue(r.out().contains("within 1.1x of QEMU's own stop/start at every N | NOT MET | N=1: 1.00x, N=2: 1.20x |"), r.out());
        assertTrue(r.out().contains("by a ratio that grows with N | met | N=1: 0.80x, N=2: 0.50x |"), r.out());
        // the spread beside the medians: QEMU's two N=1 iterations took 10 and 20 ms
        assertTrue(r.out().contains("| 1 | 10.00 – 20.00 | 15.00 – 15.00 | 12.00 – 12.00 | – | – |"), r.out());
    }

    @Test
    void warmUpRunsStayOutOfTheMediansAndEachRatioHasItsIntervalAndCallsPerWindow(@TempDir Path dir) throws Exception {
        // QEMU 10, 10, 10 ms and serial 11, 11, 11 ms (1.10x, all samples alike: the interval is that one point);
        // the warm-up runs (90 ms each) would move both medians if they counted
        List<String> runs = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            runs.add("{\"n\":1,\"iteration\":0,\"cycle\":" + c + ",\"who\":\"qemu stop/cont\",\"downtimeMs\":10,"
                    + "\"tracePoints\":40,\"msByCall\":{\"vhost_vdpa_suspend\":3,\"vhost_vdpa_dma_map\":" + (4 + c) + "}}");
            runs.add("{\"n\":1,\"iteration\":0,\"cycle\":" + c + ",\"who\":\"serial\",\"downtimeMs\":11,"
                    + "\"calls\":20,\"inCallMs\":5.5,\"commandJitMs\":" + (100 + 20 * c) + (c == 0 ? "" : ",\"msByCall\":{\"SUSPEND\":1,\"IOTLB_UPDATE\":8}") + "}");
        }
        // N=2: QEMU 8, 12, 12, 12 and serial 9, 13, 13, 13: lower quartiles 8 and 9 where the medians are 12 and 13
        for (int c = 0; c < 4; c++) {
            runs.add(run("qemu stop/cont", 2, c == 0 ? 8 : 12));
            runs.add(run("serial", 2, c == 0 ? 9 : 13).replace("}", ",\"commandJitMs\":7}"));
        }
        runs.add("{\"n\":1,\"iteration\":0,\"cycle\":-1,\"warmup\":true,\"who\":\"qemu stop/cont\",\"downtimeMs\":90}");
        runs.add("{\"n\":1,\"iteration\":0,\"cycle\":-1,\"warmup\":true,\"who\":\"serial\",\"downtimeMs\":90}");
        runs.add("{\"n\":1,\"iteration\":0,\"cycle\":-1,\"warmup\":true,\"who\":\"serial\",\"downtimeMs\":90}");
        Files.writeString(dir.resolve("6.12-qemu-downtime.json"), "{\"schema\":\"vdpactl-qemu-downtime/1\",\"kernel\":\"6.12.118\","
                + "\"qemu\":\"10.0.2\",\"n\":[1,2],\"iterations\":1,\"cycles\":3,\"warmup\":\"one each\",\"jvmOptions\":\"-XX:TieredStopAtLevel=1\",\"runs\":["
                + String.join(",", runs) + "]}");
        Run r = run(Map.of(), "python3", "scripts/lane-report", "block", "qemu-downtime", "--records", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("| 1 | 10.00 | – | – | – | 11.00 (1.10x [1.10–1.10]) |"), r.out());
        assertTrue(r.out().contains("1 QEMU starts per N, 3 measured stop/cont cycles each and as many rehearsal windows"
                + " per strategy (warm-up: one each)."), r.out());
        assertTrue(r.out().contains(" Its JVM's options: `-XX:TieredStopAtLevel=1`."), r.out());
        // QEMU: 40 calls, 0.250 ms each; serial: 20 calls, 0.550 ms each, half of its downtime inside them
        assertTrue(r.out().contains("| 1 | 40 | 0.250 | 20, 0.550, 50 % | – | – | – |"), r.out());
        // call by call, medians per window: dma_map took 4, 5 and 6 ms (5); a run without serial's breakdown is left out
        assertTrue(r.out().contains("| 1 | `vhost_vdpa_dma_map` 5.00, `vhost_vdpa_suspend` 3.00 | `IOTLB_UPDATE` 8.00,"
                + " `SUSPEND` 1.00 |"), r.out());
        // the quieter windows: lower quartiles (nearest rank) side by side, and the JIT time per command (100, 120, 140)
        assertTrue(r.out().contains("| 1 | 10.00 | 11.00 (1.10x) | – (–) | – (–) | – (–) | 120 | – | – | – |"), r.out());
        assertTrue(r.out().contains("| 2 | 8.00 | 9.00 (1.12x) | – (–) | – (–) | – (–) | 7 | – | – | – |"), r.out());
    }

    @Test
    void eachGoalRatioShowsTheRatioAgainstQemuLessItsTracersCostBesideIt(@TempDir Path dir) throws Exception {
        // QEMU's traced stop/cont 10 ms, its trace points cost 5 ms (round trips 20 traced, 15 untraced): serial's
        // 8 ms is 0.80x the traced QEMU (judged: met) and 1.60x QEMU without its tracer (shown beside it)
        String runs = String.join(",", "{\"n\":1,\"iteration\":0,\"who\":\"qemu stop/cont\",\"downtimeMs\":10,"
                + "\"tracedRoundTripMs\":20,\"untracedRoundTripMs\":15}", run("serial", 1, 8), run("parallel", 1, 4));
        Files.writeString(dir.resolve("6.12-qemu-downtime.json"), "{\"schema\":\"vdpactl-qemu-downtime/1\",\"kernel\":\"6.12.118\","
                + "\"qemu\":\"10.0.2\",\"n\":[1],\"iterations\":1,\"cycles\":1,\"runs\":[" + runs + "]}");
        Run r = run(Map.of(), "python3", "scripts/lane-report", "block", "qemu-downtime", "--records", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("within 1.1x of QEMU's own stop/start at every N | met | N=1: 0.80x (1.60x against"
                + " QEMU less its tracer's cost) |"), r.out());
        assertTrue(r.out().contains("by a ratio that grows with N | met | N=1: 0.40x (0.80x against QEMU less its tracer's"
                + " cost) |"), r.out());
        // the same verdicts as rows of docs/benchmarks.md's goal table
        Run goals = run(Map.of(), "python3", "scripts/lane-report", "block", "downtime-goals", "--records", dir.toString());
        assertEquals(0, goals.code(), goals.err());
        assertTrue(goals.out().contains("| `--strategy serial` within 1.1x of QEMU's own stop/start at every N (6.12)"
                + " | N=1: 0.80x (1.60x against QEMU less its tracer's cost) | **MET** |"), goals.out());
        // a record from before the warm-up cycles (no "cycles") paired a cold traced cycle with a warm untraced one
        Files.writeString(dir.resolve("6.12-qemu-downtime.json"), Files.readString(dir.resolve("6.12-qemu-downtime.json"))
                .replace("\"cycles\":1,", ""));
        Run old = run(Map.of(), "python3", "scripts/lane-report", "block", "qemu-downtime", "--records", dir.toString());
        assertTrue(old.out().contains("every N | met | N=1: 0.80x |"), old.out());
    }

    @Test
    void theDowntimeTableSaysWhichGuestClockTimedItAndWhatCapsTheGuestCpus(@TempDir Path dir) throws Exception {
        String runs = String.join(",", run("qemu stop/cont", 1, 10), run("serial", 1, 10), run("parallel", 1, 10));
        Files.writeString(dir.resolve("6.12-qemu-downtime.json"), "{\"schema\":\"vdpactl-qemu-downtime/1\",\"kernel\":\"6.12.118\","
                + "\"qemu\":\"10.0.2\",\"n\":[1],\"iterations\":1,\"guestCpus\":1,\"guestClock\":{\"clocksource\":\"tsc\","
                + "\"monotonicStepUs\":0.4,\"realtimeStepUs\":0.5,\"resolutionUs\":0.5,\"limitUs\":100.0,\"fineEnough\":true,"
                + "\"possibleCpus\":\"0\",\"kernelSmp\":false},\"runs\":[" + runs + "]}");
        Files.writeString(dir.resolve("6.1-qemu-downtime.json"), "{\"schema\":\"vdpactl-qemu-downtime/1\",\"kernel\":\"6.1.192\","
                + "\"qemu\":\"10.0.2\",\"n\":[1],\"iterations\":1,\"guestCpus\":1,\"runs\":[" + runs + "]}");
        Run r = run(Map.of(), "python3", "scripts/lane-report", "block", "qemu-downtime", "--records", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("* Guest clock: clocksource tsc, measured step 0.50 us (monotonic 0.40 us, wall clock"
                + " 0.50 us; limit 100 us: fine enough)."), r.out());
        assertTrue(r.out().contains("The cap is the default lane kernel: it is built without CONFIG_SMP"), r.out());
        // a record from before the clock was measured says so instead of passing for a fine one
        assertTrue(r.out().contains("* Guest clock: not recorded (records before the guest clock was measured"), r.out());
    }

    @Test
    void theSmpVariantsDowntimeRecordIsLabelledAndFollowsItsKernelsOneVcpuRecord(@TempDir Path dir) throws Exception {
        String runs = String.join(",", run("qemu stop/cont", 1, 10), run("serial", 1, 10), run("parallel", 1, 10));
        String clock = "\"guestClock\":{\"clocksource\":\"tsc\",\"monotonicStepUs\":0.4,\"realtimeStepUs\":0.5,"
                + "\"resolutionUs\":0.5,\"limitUs\":100.0,\"fineEnough\":true,";
        String one = "\"guestCpus\":1," + clock + "\"possibleCpus\":\"0\",\"kernelSmp\":false}";
        String two = "\"guestCpus\":2," + clock + "\"possibleCpus\":\"0-1\",\"kernelSmp\":true}";
        for (String[] rec : List.of(new String[] {"6.12", one}, new String[] {"6.12-smp2", two}, new String[] {"sid", one},
                new String[] {"6.1", one})) {
            Files.writeString(dir.resolve(rec[0] + "-qemu-downtime.json"), "{\"schema\":\"vdpactl-qemu-downtime/1\","
                    + "\"kernel\":\"k\",\"qemu\":\"10.0.2\",\"n\":[1],\"iterations\":1," + rec[1] + ",\"runs\":[" + runs + "]}");
        }
        Run r = run(Map.of(), "python3", "scripts/lane-report", "block", "qemu-downtime", "--records", dir.toString());
        assertEquals(0, r.code(), r.err());
        List<String> headings = r.out().lines().filter(l -> l.startsWith("**")).map(l -> l.substring(2, l.indexOf(": kernel"))).toList();
        assertEquals(List.of("6.1", "6.12", "6.12, SMP lane kernel variant (`scripts/vm-lane --smp 2`)", "sid"), headings, r.out());
        assertTrue(r.out().contains(", 2 guest vCPU(s), 1 iterations per N."), r.out());
        assertTrue(r.out().contains("The guest kernel is the lane kernel's SMP variant (scripts/vm/kernel-smp.config;"
                + " possible CPUs 0-1)."), r.out());
    }

    /** What lib/vm-common.sh says for VDPACTL_VM_SMP: the kernel's configuration lists and its cache key. */
    private static Run kernelVariant(String smp) throws IOException, InterruptedException {
        return run(Map.of("VDPACTL_VM_SMP", smp, "VDPACTL_LANE_KERNEL", "6.12"), "bash", "-c",
                ". scripts/lib/vm-common.sh && vdpactl_vm_fragments && vdpactl_vm_config_sha");
    }

    @Test
    void twoVcpusSelectTheSmpKernelVariantWithACacheKeyOfItsOwn() throws Exception {
        Run up = kernelVariant("1");
        Run smp = kernelVariant("2");
        assertEquals(0, up.code(), up.err());
        assertEquals(0, smp.code(), smp.err());
        assertTrue(up.out().lines().noneMatch(l -> l.endsWith("/kernel-smp.config")), up.out());
        List<String> lists = smp.out().lines().toList();
        assertTrue(lists.get(lists.size() - 2).endsWith("/scripts/vm/kernel-smp.config"), smp.out());
        String upKey = up.out().lines().reduce((a, b) -> b).orElseThrow();
        String smpKey = lists.get(lists.size() - 1);
        assertTrue(upKey.matches("[0-9a-f]{12}") && smpKey.matches("[0-9a-f]{12}") && !upKey.equals(smpKey), up.out() + smp.out());
        // the variant boots at most its CONFIG_NR_CPUS: more is refused with one line, before anything is built
        Run three = run(Map.of("VDPACTL_VM_SMP", "3"), "scripts/vm-lane", "--kernel", "6.12");
        assertEquals(2, three.code(), three.out() + three.err());
        assertEquals("vm-lane: VDPACTL_VM_SMP (--smp) must be 1 to 2 for the lane kernel (its SMP variant has CONFIG_NR_CPUS=2),"
                + " not '3'", three.err().strip());
    }

    @Test
    void theMigrateCheckTableShowsPredictionNextToWhatQemuDidAndEveryDisagreement(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("6.12-qemu-migrate-check.json"), """
                {"schema":"vdpactl-migrate-check-lane/1","kernel":"6.12.118","date":"2026-12-06T06:40:00Z","cases":[
                 {"case":"mtu","qemuSeries":"10.0","xSvq":false,"agrees":true,"disagreements":[],
                  "predicted":{"verdict":"blocked","blockers":["mtu"],"svq":"at-migration-start","stop":"suspend","cvq":"isolated"},
                  "observed":{"outcome":"migrated-guest-mtu-changed","svq":"at-migration-start","stop":"suspend","cvq":"isolated",
                              "guestMtuBefore":9000,"guestMtuAfter":1500}},
                 {"case":"held","qemuSeries":"7.2","xSvq":true,"agrees":false,"disagreements":["blocker held predicts x, QEMU: y"],
                  "predicted":{"verdict":"blocked","blockers":["held"],"svq":"x-svq","stop":"reset","cvq":"shadowed"},
                  "observed":{"outcome":"migrated"}}]}
                """);
        Run r = run(Map.of(), "python3", "scripts/lane-report", "block", "migrate-check", "--records", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("**Kernel 6.12** (6.12.118, lane run 2026-12-06 06:40 UTC): 1 of 2 cases agree."), r.out());
        assertTrue(r.out().contains("| mtu | 10.0 | off | blocked (mtu) | migrated-guest-mtu-changed (guest MTU 9000 → 1500) |"
                + " at-migration-start, suspend, isolated | at-migration-start, suspend, isolated | yes |"), r.out());
        assertTrue(r.out().contains("| held | 7.2 | on | blocked (held) | migrated | x-svq, reset, shadowed |"
                + " not reached, not reached, not reached | NO: blocker held predicts x, QEMU: y |"), r.out());
    }

    @Test
    void noReleaseSuiteMeansNoUnstableList(@TempDir Path etc) throws Exception {
        Files.createDirectories(etc.resolve("apt"));
        Files.writeString(etc.resolve("apt/sources.list"), "deb http://archive.example/ubuntu noble main\n");
        Run r = run(Map.of(), "python3", "scripts/lib/apt-unstable-sources.py", "--etc", etc.toString(), "--codename", "bookworm");
        assertEquals(1, r.code(), r.out());
        assertTrue(r.err().contains("no deb entry for the release suite"), r.err());
    }

    @Test
    void aLaneRecordCountsTheSurefireReports(@TempDir Path dir) throws Exception {
        Path reports = Files.createDirectories(dir.resolve("reports"));
        Files.writeString(reports.resolve("TEST-org.vdpactl.A.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuite name="org.vdpactl.A" tests="4" failures="1" errors="1" skipped="1" time="2.5">
                  <testcase name="ok" classname="org.vdpactl.A"/>
                  <testcase name="bad" classname="org.vdpactl.A"><failure message="expected: &lt;1&gt; but was: &lt;2&gt;" type="AssertionFailedError"/></testcase>
                  <testcase name="boom" classname="org.vdpactl.A"><error message="ENOTTY" type="SyscallException"/></testcase>
                  <testcase name="later" classname="org.vdpactl.A"><skipped/></testcase>
                </testsuite>
                """);
        Files.writeString(reports.resolve("TEST-org.vdpactl.B.xml"), """
                <testsuite name="org.vdpactl.B" tests="2" failures="0" errors="0" skipped="0" time="1"/>
                """);
        Files.writeString(dir.resolve("build-info"), "kernel_id=6.1\nkernel_release=6.1.176-vdpactl\nsource_package=linux-source-6.1\n"
                + "source_package_version=6.1.176-1\nconfig_sha=abc\nbuild_seconds=250\ncompiled_objects=700\n");
        Files.writeString(dir.resolve("vm-timings"), "boot_attempts=1\nboot_seconds=4.2\ncommand_seconds=90.5\n");
        Files.writeString(dir.resolve("guest-clock.json"), "{\"schema\":\"vdpactl-guest-clock/1\",\"clocksource\":\"tsc\",\"resolutionUs\":0.5}");
        List<String> cmd = new ArrayList<>(List.of("python3", "scripts/lane-report", "record", "--kernel", "6.1",
                "--build-info", dir.resolve("build-info").toString(), "--kernel-cached", "false",
                "--reports", reports.toString(), "--vm-timings", dir.resolve("vm-timings").toString(),
                "--features", dir.resolve("none.json").toString(), "--status", "1", "--started-at", "2026-01-01T00:00:00Z",
                "--kernel-seconds", "250", "--compile-seconds", "20", "--total-seconds", "370",
                "--guest-clock", dir.resolve("guest-clock.json").toString(), "--out", dir.resolve("record.json").toString()));
        Run r = run(Map.of(), cmd.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        JsonNode rec = new ObjectMapper().readTree(Files.readString(dir.resolve("record.json"), StandardCharsets.UTF_8));
        JsonNode t = rec.get("tests");
        assertEquals(6, t.get("run").asInt());
        assertEquals(3, t.get("passed").asInt());
        assertEquals(1, t.get("failed").asInt());
        assertEquals(1, t.get("errors").asInt());
        assertEquals(1, t.get("skipped").asInt());
        assertEquals("failed", rec.get("result").asText());
        assertEquals("linux-source-6.1", rec.get("kernel").get("source_package").asText());
        assertEquals(90.5, rec.get("durations_seconds").get("tests").asDouble());
        assertEquals(2, rec.get("failures").size());
        assertEquals("bad", rec.get("failures").get(0).get("test").asText());
        assertEquals("tsc", rec.path("guest_clock").path("clocksource").asText(), "the guest clock kept in the record");
    }

    @Test
    void theKernelMatrixComesOutTheSameOnEveryRun(@TempDir Path tree) throws Exception {
        // a copy of the script and of the committed records: the run rewrites docs/ next to the script
        Files.createDirectories(tree.resolve("scripts"));
        Files.copy(ROOT.resolve("scripts/lane-report"), tree.resolve("scripts/lane-report"));
        Files.createDirectories(tree.resolve("scripts/vm"));
        Files.copy(ROOT.resolve("scripts/vm/lane-matrix.tsv"), tree.resolve("scripts/vm/lane-matrix.tsv")); // the kernels it orders by
        Path records = Files.createDirectories(tree.resolve("docs/lane-records"));
        try (var files = Files.list(ROOT.resolve("docs/lane-records"))) {
            for (Path f : files.toList()) {
                Files.copy(f, records.resolve(f.getFileName()));
            }
        }
        Files.writeString(tree.resolve("docs/vm-lane.md"), "# lane\n");
        List<String> matrices = new ArrayList<>();
        for (String seed : List.of("1", "2", "3")) {
            // Python orders a set of strings by their hashes, which PYTHONHASHSEED changes from run to run
            Run r = run(Map.of("PYTHONHASHSEED", seed), "python3", tree.resolve("scripts/lane-report").toString(), "docs",
                    "--fake", tree.resolve("no-fake").toString());
            assertEquals(0, r.code(), r.err());
            matrices.add(Files.readString(tree.resolve("docs/kernel-matrix.md")));
        }
        assertTrue(matrices.getFirst().contains("VDPA_CMD_DEV_ATTR_SET request"), "rows of a command 6.1 lacks");
        assertEquals(matrices.get(0), matrices.get(1));
        assertEquals(matrices.get(0), matrices.get(2));
    }

    /**
     * The lane's guest Maven runs offline on the local repository the host build used: named on its command line
     * (vm-run forwards no MAVEN_OPTS and no settings location, so the guest used its default ~/.m2, which passed only
     * while that held the same artifacts) and shared with the guest when it lies outside the checkout (the guest's
     * /tmp is a tmpfs of its own). Mutations: the --rw line dropped from scripts/lib/maven.sh, the option left off
     * the guest's mvn in scripts/vm-lane.
     */
    @Test
    void theGuestMavenGetsTheHostBuildsLocalRepository(@TempDir Path dir) throws Exception {
        Path checkout = Files.createDirectories(dir.resolve("checkout")).toRealPath();
        Path outside = Files.createDirectories(dir.resolve("m2")).toRealPath();
        Path inside = Files.createDirectories(checkout.resolve("target/m2")).toRealPath();
        String fn = ". scripts/lib/maven.sh && vdpactl_lane_maven_repo_args \"$1\" \"$2\"";
        Run r = run(Map.of(), "bash", "-c", fn, "test", checkout.toString(), outside.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of("--rw", outside.toString(), "--", "-Dmaven.repo.local=" + outside), r.out().lines().toList());
        r = run(Map.of(), "bash", "-c", fn, "test", checkout.toString(), inside.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of("--", "-Dmaven.repo.local=" + inside), r.out().lines().toList(), "inside the shared checkout");

        String lane = Files.readString(ROOT.resolve("scripts/vm-lane"));
        String guestRun = lane.substring(lane.indexOf("\"$root/scripts/vm-run\" --kernel \"$bzimage\""));
        guestRun = guestRun.substring(0, guestRun.indexOf("rc=$?"));
        assertTrue(guestRun.contains("\"${m2_share[@]}\" --"), "vm-run shares the repository: " + guestRun);
        assertTrue(guestRun.contains("/scripts/lib/guest-maven-repo-check\" \"$m2\"")
                && guestRun.contains("mvn -o -B -ntp \"$m2_option\" test"), "the guest's mvn names the repository: " + guestRun);
    }

    @Test
    void theGuestSaysSoWhenTheRepositoryIsNotVisible(@TempDir Path dir) throws Exception {
        Run r = run(Map.of(), "scripts/lib/guest-maven-repo-check", dir.resolve("absent").toString(), "true");
        assertEquals(1, r.code(), r.out());
        assertTrue(r.err().contains("local Maven repository " + dir.resolve("absent") + " is not visible in the guest"), r.err());
        Files.createDirectories(dir.resolve("m2/org/apache/maven/plugins"));
        r = run(Map.of(), "scripts/lib/guest-maven-repo-check", dir.resolve("m2").toString(), "sh", "-c", "exit 7");
        assertEquals(7, r.code(), r.err());
    }
}
