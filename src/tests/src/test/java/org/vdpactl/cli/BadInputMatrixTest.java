package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.vdpactl.cli.rehearse.ReportFile;
import org.vdpactl.fake.state.FakeStateStore;

/**
 * Bad input through the whole CLI: each case must end in exactly one "vdpactl: ..." line naming the
 * problem, the documented exit code, and no stack trace.
 */
class BadInputMatrixTest {
    @TempDir
    static Path tmp;

    static Stream<Arguments> cases() throws IOException {
        Path regular = Files.writeString(tmp.resolve("not-a-device"), "hello");
        return Stream.of(
                Arguments.of(new String[] {"--backend", "bogus", "doctor"}, ExitCode.USAGE, "unknown backend"),
                Arguments.of(new String[] {"no-such-command"}, ExitCode.USAGE, "no-such-command"),
                Arguments.of(new String[] {"doctor", "--memory", "12Q"}, ExitCode.USAGE, "not a size"),
                Arguments.of(new String[] {"doctor", "--memory", "-1G"}, ExitCode.USAGE, "--memory"),
                Arguments.of(new String[] {"--backend", "kernel", "vhost", "info", "/dev/null"}, ExitCode.USAGE,
                        "not a vhost-vdpa device"),
                Arguments.of(new String[] {"--backend", "kernel", "vhost", "info", regular.toString()}, ExitCode.USAGE,
                        "not a character device"),
                Arguments.of(new String[] {"--backend", "kernel", "vhost", "info", "/nonexistent/vhost-vdpa-9"}, ExitCode.NOT_FOUND,
                        "cannot stat"),
                Arguments.of(new String[] {"--backend", "kernel", "vhost", "info", "/dev/null", "--fd", "3"}, ExitCode.USAGE,
                        "exactly one of DEV or --fd"),
                Arguments.of(new String[] {"--backend", "kernel", "vhost", "suspend"}, ExitCode.USAGE, "DEV"),
                Arguments.of(new String[] {"--backend", "kernel", "vhost", "info", "--fd", "-4"}, ExitCode.USAGE, "--fd"));
    }

    /** Bad input on the fake backend: besides the one line and the exit code, nothing runs and no data is printed. */
    static Stream<Arguments> fakeCases() throws IOException {
        Path faults = Files.writeString(tmp.resolve("faults.json"), "[]");
        Path typo = Files.writeString(tmp.resolve("typo.json"), "[{\"call\": \"VHOST_VDPA_SUSPNED\", \"errno\": \"EIO\"}]");
        Path badErrno = Files.writeString(tmp.resolve("errno.json"), "[{\"call\": \"suspend\", \"errno\": 99999}]");
        return Stream.of(
                Arguments.of(new String[] {"rehearse", "--report", "/nonexistent-dir/x.html"}, ExitCode.NOT_FOUND,
                        "/nonexistent-dir does not exist"),
                Arguments.of(new String[] {"rehearse", "--report", tmp.toString()}, ExitCode.USAGE, "is a directory"),
                Arguments.of(new String[] {"rehearse", "--report", "/proc/version"}, ExitCode.USAGE, "not a regular file"),
                Arguments.of(new String[] {"rehearse", "--compare", "mlx5-pre612,mlx5-612", "--report", tmp.resolve("c.html").toString()},
                        ExitCode.USAGE, "drop --report"),
                Arguments.of(new String[] {"--fake-faults", faults.toString(), "rehearse", "--compare", "mlx5-pre612,mlx5-612"},
                        ExitCode.USAGE, "drop --fake-faults"),
                Arguments.of(new String[] {"rehearse", "--queue-pairs", "0"}, ExitCode.USAGE, "--queue-pairs"),
                Arguments.of(new String[] {"--fake-faults", typo.toString(), "rehearse"}, ExitCode.USAGE,
                        "rule #1: unknown call \"VHOST_VDPA_SUSPNED\" (the rule could never fire); valid calls: "),
                Arguments.of(new String[] {"--fake-faults", typo.toString(), "rehearse"}, ExitCode.USAGE, "VHOST_VDPA_SUSPEND,"),
                Arguments.of(new String[] {"--fake-faults", badErrno.toString(), "rehearse"}, ExitCode.USAGE,
                        "rule #1: errno 99999 is not a Linux errno"),
                Arguments.of(new String[] {"mgmtdev"}, ExitCode.USAGE, "missing subcommand"),
                Arguments.of(new String[] {"vhost"}, ExitCode.USAGE, "missing subcommand"),
                Arguments.of(new String[] {"doctor", "nosuch"}, ExitCode.NOT_FOUND, "no vDPA device of that name"),
                Arguments.of(new String[] {"doctor", "/dev/null"}, ExitCode.USAGE, "not a vhost-vdpa device"),
                Arguments.of(new String[] {"vhost", "info", "/dev/null"}, ExitCode.USAGE, "not a vhost-vdpa device"),
                Arguments.of(new String[] {"vhost", "info", "--fd", "999"}, ExitCode.KERNEL_ERROR, "file descriptor is not open"),
                Arguments.of(new String[] {"dev", "add", "m1", "--mgmtdev", "vdpasim_net", "--mac", "02-00-00-00-00-07"}, ExitCode.USAGE,
                        "not a MAC address"),
                Arguments.of(new String[] {"dev", "add", "m1", "--mgmtdev", "vdpasim_net", "--mac", "02:00:00:00:00:07:08"}, ExitCode.USAGE,
                        "not a MAC address"),
                Arguments.of(new String[] {"dev", "add", "m1", "--mgmtdev", "vdpasim_net", "--mac", "ff:ff:ff:ff:ff:ff"}, ExitCode.USAGE,
                        "is a broadcast address"),
                Arguments.of(new String[] {"dev", "add", "m1", "--mgmtdev", "vdpasim_net", "--mac", "01:00:5e:00:00:01"}, ExitCode.USAGE,
                        "is a multicast address"),
                Arguments.of(new String[] {"dev", "set", "vdpa0", "--mac", "ff:ff:ff:ff:ff:ff"}, ExitCode.USAGE, "is a broadcast address"),
                Arguments.of(new String[] {"dev", "add", "a/b", "--mgmtdev", "vdpasim_net"}, ExitCode.USAGE, "listed as \"a!b\""),
                Arguments.of(new String[] {"dev", "add", "../../etc", "--mgmtdev", "vdpasim_net"}, ExitCode.USAGE, "contains '/'"),
                Arguments.of(new String[] {"dev", "add", "a b", "--mgmtdev", "vdpasim_net"}, ExitCode.USAGE, "whitespace"),
                Arguments.of(new String[] {"dev", "add", "a\nb", "--mgmtdev", "vdpasim_net"}, ExitCode.USAGE, "a\\nb\" contains whitespace"),
                Arguments.of(new String[] {"dev", "add", "..", "--mgmtdev", "vdpasim_net"}, ExitCode.USAGE, "not a possible sysfs"),
                Arguments.of(new String[] {"dev", "add", "\u20ac".repeat(86), "--mgmtdev", "vdpasim_net"}, ExitCode.USAGE,
                        "1 to 255 bytes (it has 258)"),
                // input files: refused before they are read, never a hang or an OutOfMemoryError
                Arguments.of(new String[] {"--fake-faults", "/dev/zero", "dev", "list"}, ExitCode.USAGE,
                        "/dev/zero: it is a character device, not a regular file"),
                Arguments.of(new String[] {"--fake-faults", fifo("faults.fifo").toString(), "dev", "list"}, ExitCode.USAGE,
                        "it is a FIFO, not a regular file"),
                Arguments.of(new String[] {"--fake-faults", tmp.toString(), "dev", "list"}, ExitCode.USAGE, "it is a directory"),
                Arguments.of(new String[] {"--fake-faults", oversized("big-faults.json").toString(), "dev", "list"}, ExitCode.USAGE,
                        "larger than 16 MiB"),
                Arguments.of(new String[] {"rehearse", "--memory-layout", "/dev/zero"}, ExitCode.USAGE, "it is a character device"),
                Arguments.of(new String[] {"rehearse", "--memory-layout", fifo("layout.fifo").toString()}, ExitCode.USAGE, "it is a FIFO"),
                Arguments.of(new String[] {"report", "merge", "/dev/zero"}, ExitCode.USAGE, "it is a character device"),
                Arguments.of(new String[] {"report", "merge", oversized("big-host.json").toString()}, ExitCode.USAGE, "larger than 16 MiB"));
    }

    /** A named pipe: opening one for reading blocks until a writer comes, so a reader that opens it plainly hangs. */
    static Path fifo(String name) throws IOException {
        Path p = tmp.resolve(name);
        if (!Files.exists(p)) {
            try {
                int rc = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start().waitFor();
                Assumptions.assumeTrue(rc == 0, "mkfifo failed");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }
        return p;
    }

    /** A sparse file of 17 MiB: larger than any input file is read, cheap to make. */
    static Path oversized(String name) throws IOException {
        Path p = tmp.resolve(name);
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.setLength(17L << 20);
        }
        return p;
    }

    /**
     * State files that hold what the commands refuse, or nothing a state can be: each is refused on
     * load with exit 2 and the entry named, never loaded (exit 0) nor an internal error.
     */
    static Stream<Arguments> badStates() {
        String mgmts = "\"mgmtdevs\": [{\"profile\": \"vdpasim_net\", \"dev\": \"vdpasim_net\"},"
                + " {\"profile\": \"vdpasim_blk\", \"dev\": \"vdpasim_blk\"}]";
        Function<String, String> dev = d -> "{\"version\": 1, " + mgmts + ", \"devices\": [" + d + "]}";
        return Stream.of(
                Arguments.of("{\"version\": 1, \"mgmtdevs\": [null], \"devices\": []}", "mgmtdevs[0] is null"),
                Arguments.of(dev.apply("null"), "devices[0] is null"),
                Arguments.of(dev.apply("{\"name\": \"a b\", \"mgmtdev\": \"vdpasim_net\"}"), "devices[0].name \"a b\" contains whitespace"),
                Arguments.of(dev.apply("{\"name\": \"a\\nb\", \"mgmtdev\": \"vdpasim_net\"}"), "devices[0].name \"a\\nb\" contains whitespace"),
                Arguments.of(dev.apply("{\"name\": \"..\", \"mgmtdev\": \"vdpasim_net\"}"), "not a possible sysfs directory name"),
                Arguments.of(dev.apply("{\"name\": \"" + "x".repeat(300) + "\", \"mgmtdev\": \"vdpasim_net\"}"), "1 to 255 bytes (it has 300)"),
                Arguments.of(dev.apply("{\"name\": \"\\udc80x\", \"mgmtdev\": \"vdpasim_net\"}"), "unpaired surrogate"),
                Arguments.of(dev.apply("{\"name\": \"n1\", \"mgmtdev\": \"vdpasim_net\", \"mac\": \"ff:ff:ff:ff:ff:ff\"}"),
                        "devices[0].mac \"ff:ff:ff:ff:ff:ff\" is a broadcast address"),
                Arguments.of(dev.apply("{\"name\": \"n1\", \"mgmtdev\": \"vdpasim_net\", \"configMac\": \"00:00:00:00:00:00\"}"),
                        "devices[0].configMac \"00:00:00:00:00:00\" is all zeros"),
                Arguments.of(dev.apply("{\"name\": \"b1\", \"mgmtdev\": \"vdpasim_blk\", \"mac\": \"02:00:00:00:00:07\"}"),
                        "device b1 is provisioned with attributes (mask 0x400) that vdpasim_blk does not accept"),
                Arguments.of(dev.apply("{\"name\": \"b1\", \"mgmtdev\": \"vdpasim_blk\", \"mtu\": 1500}"),
                        "device b1 is provisioned with attributes (mask 0x2000) that vdpasim_blk does not accept"),
                Arguments.of("\u00ff\"version\"", "is corrupt"));
    }

    @ParameterizedTest
    @MethodSource("badStates")
    void aStateFileHoldingWhatTheCommandsRefuseIsRefusedOnLoad(String content, String mentions, @TempDir Path dir) throws Exception {
        Path state = dir.resolve("fake-state.json");
        // "\u00ff..." stands for a file whose first byte is not UTF-8
        Files.write(state, content.startsWith("\u00ff") ? new byte[] {(byte) 0xff, '{', '}'}
                : content.getBytes(StandardCharsets.UTF_8));
        byte[] before = Files.readAllBytes(state);
        for (String[] cmd : new String[][] {{"dev", "list"}, {"dev", "add", "ok1", "--mgmtdev", "vdpasim_net"}}) {
            CliRun r = onState(state, cmd);
            assertOneLine(r, ExitCode.USAGE, mentions);
            assertEquals("", r.out());
        }
        Assertions.assertArrayEquals(before, Files.readAllBytes(state), "a refused state was rewritten");
    }

    /** The state file, its link or its open-nodes file being a FIFO, a device or huge: exit 2, no hang, no heap exhausted. */
    static Stream<Arguments> unreadableStates() throws IOException {
        return Stream.of(
                Arguments.of(fifo("state.fifo"), "it is a FIFO, not a regular file"),
                Arguments.of(Path.of("/dev/zero"), "it is a character device, not a regular file"),
                Arguments.of(tmp, "it is a directory"),
                Arguments.of(Path.of("/etc/passwd/fake-state.json"), "Not a directory"),
                Arguments.of(tmp.resolve("x".repeat(300)), "File name too long"),
                Arguments.of(oversized("big-state.json"), "it is larger than 16 MiB"));
    }

    @ParameterizedTest
    @MethodSource("unreadableStates")
    void aStateFileThatIsNotARegularFileOrTooLargeIsRefused(Path state, String mentions) throws Exception {
        for (String[] cmd : new String[][] {{"dev", "list"}, {"dev", "add", "ok1", "--mgmtdev", "vdpasim_net"}}) {
            CliRun r = CompletableFuture.supplyAsync(() -> onState(state, cmd))
                    .get(60, TimeUnit.SECONDS); // a hang fails here, not the build
            assertOneLine(r, ExitCode.USAGE, "cannot be used: " + mentions);
        }
    }

    @ParameterizedTest
    @MethodSource("fakeCases")
    void badInputOnTheFakeDoesNothing(String[] args, ExitCode expected, String mentions) {
        CliRun r = onState(tmp.resolve("matrix-state.json"), args);
        assertOneLine(r, expected, mentions);
        assertEquals("", r.out(), "data printed although nothing should have run");
    }

    @Test
    void theKernelBackendWithoutTheVdpaModuleIsNotReady() {
        Assumptions.assumeFalse(Backends.kernelHasVdpa(), "this host's kernel has vDPA");
        CliRun r = CliRun.of("--backend", "kernel", "dev", "list");
        assertOneLine(r, ExitCode.NOT_READY, "vdpa module");
    }

    @Test
    void compareWithJsonPrintsOneJsonDocument(@TempDir Path dir) throws Exception {
        CliRun r = onState(dir.resolve("s.json"), "--json", "rehearse", "--compare", "mlx5-pre612,mlx5-612", "--devices", "1");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertEquals("mlx5-pre612", doc.get("before").asText());
        assertTrue(doc.has("plan"), r.out());
    }

    @Test
    void aReportThatFailsLateSaysWhyAndThatTheResultsStand(@TempDir Path dir) throws Exception {
        Path sub = Files.createDirectory(dir.resolve("gone"));
        var report = ReportFile.checked(sub.resolve("x.html"));
        Files.delete(sub);
        CliFailure f = Assertions.assertThrows(CliFailure.class, () -> report.write("<html/>"));
        assertEquals(ExitCode.NOT_FOUND, f.exitCode());
        assertTrue(f.getMessage().contains("No such file or directory") && f.getMessage().contains("results above are complete"),
                f.getMessage());
    }

    // ------------------------------------------------------------------ help

    @Test
    void everyOptionAndArgumentHasHelpAndEveryCommandASentenceInTheList() {
        List<String> missing = new ArrayList<>();
        ArrayDeque<picocli.CommandLine> todo = new ArrayDeque<>(List.of(Main.commandLine()));
        while (!todo.isEmpty()) {
            picocli.CommandLine cl = todo.pop();
            var spec = cl.getCommandSpec();
            for (var o : spec.options()) {
                if (String.join("", o.description()).isBlank()) {
                    missing.add(spec.qualifiedName() + " " + o.longestName() + ": no help text");
                }
            }
            for (var p : spec.positionalParameters()) {
                if (String.join("", p.description()).isBlank()) {
                    missing.add(spec.qualifiedName() + " " + p.paramLabel() + ": no help text");
                }
            }
            String[] desc = spec.usageMessage().description();
            // the parent's command list shows only the first line: it must be a whole sentence
            if (desc.length == 0 || !desc[0].strip().endsWith(".")) {
                missing.add(spec.qualifiedName() + ": first description line is not a sentence: "
                        + (desc.length == 0 ? "(none)" : desc[0]));
            }
            cl.getSubcommands().values().stream().distinct().forEach(todo::add);
        }
        assertTrue(missing.isEmpty(), String.join("\n", missing));
    }

    // ------------------------------------------------------------------ failures and the outcome

    private static CliRun rehearseWithFaults(Path dir, String faults, String... args) throws IOException {
        Path rules = Files.writeString(dir.resolve("faults.json"), faults);
        String[] full = new String[args.length + 3];
        full[0] = "--fake-faults";
        full[1] = rules.toString();
        full[2] = "rehearse";
        System.arraycopy(args, 0, full, 3, args.length);
        return onState(dir.resolve("state.json"), full);
    }

    @Test
    void aDriverOkThatSetsFailedIsNamedAndTheSetUpFailureReportsEveryDevice(@TempDir Path dir) throws Exception {
        // the 4th set_status of vdpa0's bring-up is DRIVER_OK: the driver sets FAILED, the ioctl returns 0
        String rule = "[{\"device\": \"vdpa0\", \"call\": \"set_status\", \"occurrence\": 4, \"errno\": \"EIO\"}]";
        CliRun text = rehearseWithFaults(dir, rule, "vdpa0", "vdpa1");
        assertEquals(ExitCode.PARTIAL.code(), text.exitCode(), text.err());
        assertTrue(text.out().contains("VHOST_VDPA_SET_STATUS DRIVER_OK") && text.out().contains("FAILED"), text.out());
        assertFalse(text.out().contains("did not answer"), "blamed on the control queue:\n" + text.out());
        assertTrue(text.out().lines().anyMatch(l -> l.startsWith("vdpa1 ") && l.contains("reset")), "no per-device report:\n" + text.out());
        assertTrue(text.noStackTrace(), text.err());

        CliRun json = rehearseWithFaults(dir, rule, "--json", "vdpa0");
        assertEquals(ExitCode.PARTIAL.code(), json.exitCode(), json.err());
        JsonNode doc = new ObjectMapper().readTree(json.out());
        assertEquals("partial", doc.get("outcome").asText());
        assertEquals("VHOST_VDPA_SET_STATUS DRIVER_OK", doc.get("failure").get("call").asText());
        assertEquals("RESET", doc.get("devices").get(0).get("state").asText());
    }

    @Test
    void aDeviceWhoseFinalStatusCannotBeReadMakesThePartialOutcomeNamingIt(@TempDir Path dir) throws Exception {
        // the 10th GET_STATUS of a one-iteration vdpa0 rehearsal is the final read-back after the window
        CliRun r = rehearseWithFaults(dir, "[{\"device\": \"vdpa0\", \"call\": \"VHOST_VDPA_GET_STATUS\", \"occurrence\": 10,"
                + " \"errno\": \"EIO\"}]", "vdpa0");
        assertEquals(ExitCode.PARTIAL.code(), r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("vdpa0 was not left in a known state"), r.out());
    }

    // ------------------------------------------------------------------ the fake's state file

    private static CliRun onState(Path state, String... args) {
        return CliRun.onFake(state, args);
    }

    private static void assertOneLine(CliRun r, ExitCode expected, String mentions) {
        assertEquals(expected.code(), r.exitCode(), () -> "exit code\nstderr: " + r.err());
        assertTrue(r.noStackTrace(), () -> "stack trace printed:\n" + r.err());
        assertEquals(1, r.errorLines(), () -> "not one vdpactl: line:\n" + r.err());
        assertTrue(r.err().contains(mentions), () -> "stderr does not mention '" + mentions + "':\n" + r.err());
    }

    @Test
    void aStateThatCannotBeSavedIsOneLineExit4AndNothingClaimsSuccess(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("st").resolve("fake-state.json");
        assertEquals(0, onState(state, "dev", "add", "first", "--mgmtdev", "vdpasim_net").exitCode());
        try (UnwritableDirectory ro = UnwritableDirectory.of(state.getParent())) {
            CliRun add = onState(state, "dev", "add", "vdpa9", "--mgmtdev", "vdpasim_net");
            assertOneLine(add, ExitCode.PERMISSION, ro.reason());
            assertFalse(add.err().contains("created"), add.err());
            assertEquals("", add.out(), "nothing printed as if it had worked");
        }
        assertFalse(onState(state, "dev", "list").out().contains("vdpa9"));
    }

    @Test
    void aNegativeMinorOrMtuInTheStateIsRefusedNamingTheField(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("fake-state.json");
        for (String field : new String[] {"\"minor\": -1", "\"mtu\": -5"}) {
            Files.writeString(state, "{\"version\": 1, \"mgmtdevs\": [{\"profile\": \"vdpasim_net\", \"dev\": \"vdpasim_net\"}],"
                    + " \"devices\": [{\"name\": \"x\", \"mgmtdev\": \"vdpasim_net\", " + field + "}]}");
            assertOneLine(onState(state, "dev", "list"), ExitCode.USAGE, "devices[0]." + field.substring(1, field.indexOf('"', 1)));
        }
    }

    @Test
    void readOnlyCommandsNeverWriteTheState(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("fake-state.json");
        assertEquals(0, onState(state, "dev", "list").exitCode());
        assertFalse(Files.exists(state), "dev list created the state file");
        assertEquals(0, onState(state, "dev", "add", "t1", "--mgmtdev", "vdpasim_net").exitCode());
        Files.setLastModifiedTime(state, FileTime.fromMillis(0));
        String before = Files.readString(state);
        for (String[] cmd : new String[][] {{"dev", "list"}, {"mgmtdev", "list"}, {"dev", "config", "t1"}, {"vhost", "info", "t1"}}) {
            assertEquals(0, onState(state, cmd).exitCode(), String.join(" ", cmd));
        }
        assertEquals(0, Files.getLastModifiedTime(state).toMillis(), "a read-only command rewrote the state");
        assertEquals(before, Files.readString(state));
    }

    @Test
    void aCommandWaitingForTheStateLockSaysSoAndForWhom(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("fake-state.json");
        PrintStream realErr = System.err;
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        var holder = new FakeStateStore(state).open();
        Future<CliRun> add;
        try (var pool = Executors.newSingleThreadExecutor()) {
            System.setErr(new PrintStream(logs, true, StandardCharsets.UTF_8));
            try {
                // the holder is a thread of this process: that wait is logged at debug only (a WARN that the process waits
                // on itself is noise), so --verbose shows it
                add = pool.submit(() -> onState(state, "--verbose", "dev", "add", "w1", "--mgmtdev", "vdpasim_net"));
                while (!logs.toString(StandardCharsets.UTF_8).contains("waiting for")) {
                    assertFalse(add.isDone(), () -> "finished without waiting: " + logs);
                    Thread.sleep(20);
                }
            } finally {
                holder.close();
            }
            assertEquals(0, add.get().exitCode(), add.get().err());
        } finally {
            System.setErr(realErr);
        }
        String line = logs.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("waiting for")).findFirst().orElseThrow();
        // the holder is a thread of this JVM: the kernel knows only the process, so the line says so
        assertTrue(line.contains("state lock") && line.contains("another thread of this process (pid "
                + ProcessHandle.current().pid() + ")"), line);
    }

    @Test
    void manyConcurrentInvocationsOnOneStateAllSucceed(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("fake-state.json");
        int n = 16;
        List<Future<CliRun>> runs = new ArrayList<>();
        try (var pool = Executors.newFixedThreadPool(n)) {
            CountDownLatch start = new CountDownLatch(1);
            for (int i = 0; i < n; i++) {
                String name = "c" + i;
                runs.add(pool.submit(() -> {
                    start.await();
                    return onState(state, "dev", "add", name, "--mgmtdev", "vdpasim_net");
                }));
            }
            start.countDown();
            for (var r : runs) {
                CliRun run = r.get();
                assertEquals(0, run.exitCode(), run.err());
            }
        }
        String list = onState(state, "dev", "list").out();
        for (int i = 0; i < n; i++) {
            assertTrue(list.contains("c" + i + ":"), "c" + i + " lost:\n" + list);
        }
        Set<Integer> minors = new HashSet<>();
        for (JsonNode d : new ObjectMapper().readTree(state.toFile()).get("devices")) {
            assertTrue(minors.add(d.get("minor").asInt()), "minor used twice: " + d);
        }
    }

    /**
     * 64 invocations at once on one state file, in-process threads each with its own fake kernel
     * (as 64 processes would have): 48 dev add, 8 dev list and 8 vhost info of one node (which
     * contend for the single opener across kernels). No device is lost, the file parses, and every
     * invocation either succeeds or fails with a documented exit code (a busy node: 7).
     */
    @Test
    void sixtyFourConcurrentInvocationsLoseNothingAndEndWithDocumentedCodes(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("fake-state.json");
        int adds = 48;
        List<String[]> commands = new ArrayList<>();
        for (int i = 0; i < adds; i++) {
            commands.add(new String[] {"dev", "add", "c" + i, "--mgmtdev", "vdpasim_net"});
        }
        for (int i = 0; i < 8; i++) {
            commands.add(new String[] {"dev", "list", "--json"});
            commands.add(new String[] {"vhost", "info", "vdpa0", "--json"});
        }
        List<Future<CliRun>> runs = new ArrayList<>();
        try (var pool = Executors.newFixedThreadPool(commands.size())) {
            CountDownLatch start = new CountDownLatch(1);
            for (String[] c : commands) {
                runs.add(pool.submit(() -> {
                    start.await();
                    return onState(state, c);
                }));
            }
            start.countDown();
            Set<Integer> documented = Set.of(0, 1, 2, 3, 4, 5, 6, 7, 8);
            for (int i = 0; i < runs.size(); i++) {
                CliRun run = runs.get(i).get();
                String what = String.join(" ", commands.get(i));
                if (i < adds || commands.get(i)[0].equals("dev")) {
                    assertEquals(0, run.exitCode(), what + ": " + run.err());
                } else {
                    assertTrue(run.exitCode() == 0 || run.exitCode() == ExitCode.KERNEL_ERROR.code(), what + ": " + run.err());
                    assertTrue(documented.contains(run.exitCode()));
                }
                assertTrue(run.noStackTrace(), what + ": " + run.err());
            }
        }
        JsonNode saved = new ObjectMapper().readTree(state.toFile());
        Set<String> names = new HashSet<>();
        saved.get("devices").forEach(d -> names.add(d.get("name").asText()));
        for (int i = 0; i < adds; i++) {
            assertTrue(names.contains("c" + i), "c" + i + " lost: " + names);
        }
        assertTrue(names.containsAll(List.of("vdpa0", "vdpa1", "mlx5-0", "mlx5-1", "mlx5-2", "mlx5-3")), names.toString());
        JsonNode open = new ObjectMapper()
                .readTree(state.resolveSibling("fake-state.json.open").toFile());
        assertTrue(open.isArray() && open.isEmpty(), "every open was closed: " + open);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void endsInOneLineAndTheDocumentedExitCode(String[] args, ExitCode expected, String mentions) {
        CliRun r = CliRun.of(args);
        assertEquals(expected.code(), r.exitCode(), () -> "exit code of " + String.join(" ", args) + "\nstderr: " + r.err());
        assertTrue(r.noStackTrace(), () -> "stack trace printed:\n" + r.err());
        assertTrue(r.errorLines() >= 1, () -> "no vdpactl: line in\n" + r.err());
        assertTrue(r.err().contains(mentions), () -> "stderr does not mention '" + mentions + "':\n" + r.err());
    }
}
