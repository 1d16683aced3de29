package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.fake.state.StateFileFaults;
import org.vdpactl.sys.Errno;
import picocli.CommandLine;

/**
 * A batch of dev add lines wrote the whole fake state once per line (20,000 lines: not done in 240 s): consecutive
 * dev add lines now run on one opened backend and are saved together, their output printed once saved. The group's
 * limits are given to the run here (the command line's are 1000 lines or 1 s), so that no count depends on speed.
 */
class BatchGroupTest {
    private static final BatchGroup.Policy NEVER_BY_TIME = new BatchGroup.Policy(1000, Long.MAX_VALUE, () -> 0L);

    @TempDir
    Path dir;
    Path state;

    @BeforeEach
    void existingState() {
        state = dir.resolve("state.json");
        assertEquals(0, CliRun.onVirtualFake(state, "dev", "add", "first", "--mgmtdev", "vdpasim_net").exitCode());
    }

    private CliRun batch(List<String> lines, BatchGroup.Policy policy, boolean force) throws IOException {
        Path file = Files.write(dir.resolve("batch.txt"), lines);
        CommandLine.ParseResult root = Main.commandLine().parseArgs("--backend", "fake", "--fake-clock", "virtual",
                "--fake-state", state.toString(), "--batch", file.toString());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = BatchRun.run(file.toString(), force, BatchOptions.given(root), CallerIdentity.ROOT, new PrintWriter(out, true),
                new PrintWriter(err, true), policy);
        return new CliRun(rc, out.toString(), err.toString());
    }

    private static List<String> adds(int from, int to) {
        List<String> lines = new ArrayList<>();
        for (int i = from; i < to; i++) {
            lines.add("dev add b" + i + " --mgmtdev vdpasim_net");
        }
        return lines;
    }

    private static int occurrences(String text, String what) {
        return text.split(java.util.regex.Pattern.quote(what), -1).length - 1;
    }

    private String listed() {
        CliRun list = CliRun.onVirtualFake(state, "dev", "list");
        assertEquals(0, list.exitCode(), list.err());
        return "\n" + list.out();
    }

    @Test
    void aRunOfDevAddLinesWritesTheStateOnce() throws IOException {
        CliRun r;
        long writes;
        try (StateFileFaults.Counter w = StateFileFaults.count(dir, StateFileFaults.Step.WRITE)) {
            r = batch(adds(0, 30), NEVER_BY_TIME, false);
            writes = w.value();
        }
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(1, writes, "state writes for 30 dev add lines");
        String listed = listed();
        for (int i = 0; i < 30; i++) {
            assertTrue(listed.contains("\nb" + i + ": type net"), "b" + i + " saved: " + listed);
        }
    }

    @Test
    void aFullGroupIsSavedAndEveryLineReportsInOrder() throws IOException {
        CliRun r;
        long writes;
        try (StateFileFaults.Counter w = StateFileFaults.count(dir, StateFileFaults.Step.WRITE)) {
            r = batch(adds(0, 25), new BatchGroup.Policy(10, Long.MAX_VALUE, () -> 0L), false);
            writes = w.value();
        }
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(3, writes, "groups of 10, 10 and 5 lines");
        List<String> created = r.err().lines().filter(l -> l.startsWith("vdpactl: created ")).toList();
        assertEquals(25, created.size(), r.err());
        for (int i = 0; i < 25; i++) {
            assertTrue(created.get(i).startsWith("vdpactl: created b" + i + " on "), created.get(i));
        }
    }

    @Test
    void aGroupIsSavedWhenItsTimeIsUp() throws IOException {
        // a clock that moves one tick each time it is read: when a group opens and when each of its lines ends
        long[] ticks = {0};
        BatchGroup.Policy twoTicks = new BatchGroup.Policy(1000, 2, () -> ticks[0]++);
        CliRun r;
        long writes;
        try (StateFileFaults.Counter w = StateFileFaults.count(dir, StateFileFaults.Step.WRITE)) {
            r = batch(adds(0, 4), twoTicks, false);
            writes = w.value();
        }
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(2, writes, "opened at 0, due at the 2nd line's end (2); reopened at 3, due at the 4th line's end (5)");
        assertTrue(listed().contains("\nb3: type net"));
    }

    @Test
    void anotherLineSeesTheGroupsDevicesAndPrintsAfterThem() throws IOException {
        List<String> lines = new ArrayList<>(adds(0, 2));
        lines.add("dev list");
        lines.addAll(adds(2, 3));
        CliRun r = batch(lines, NEVER_BY_TIME, false);
        assertEquals(0, r.exitCode(), r.err());
        // each dev add lists its device; dev list (line 3) lists b0 and b1 once more, not b2, whose own line comes last
        assertEquals(2, occurrences(r.out(), "b0: type net"), r.out());
        assertEquals(2, occurrences(r.out(), "b1: type net"), "dev list saw the lines before it: " + r.out());
        assertEquals(1, occurrences(r.out(), "b2: type net"), "nor a line after it: " + r.out());
        assertTrue(r.out().strip().lines().reduce((a, b) -> b).orElseThrow().startsWith("b2: type net"), r.out());
        assertTrue(r.out().indexOf("b1: type") < r.out().indexOf("first: type"), "the dev add lines print before the list: " + r.out());
        assertTrue(listed().contains("\nb2: type net"));
    }

    @Test
    void aFailingLineSavesTheLinesBeforeItAndItsErrorFollowsTheirs() throws IOException {
        List<String> lines = List.of("dev add a --mgmtdev vdpasim_net", "dev add a --mgmtdev vdpasim_net", "dev add b --mgmtdev vdpasim_net");
        CliRun r = batch(lines, NEVER_BY_TIME, false);
        assertTrue(r.exitCode() != 0, r.err());
        String listed = listed();
        assertTrue(listed.contains("\na: type net"), listed);
        assertFalse(listed.contains("\nb: type net"), "the batch stopped: " + listed);
        int created = r.err().indexOf("vdpactl: created a on ");
        int stopped = r.err().indexOf(":2: stopped (exit ");
        assertTrue(created >= 0 && stopped > created, "created before stopped: " + r.err());
    }

    @Test
    void aSaveThatFailsSaysWhichLinesAreNotDoneAndReportsNoneOfThem() throws Exception {
        CliRun r;
        try (AutoCloseable full = StateFileFaults.inject(dir, StateFileFaults.Step.WRITE, Errno.ENOSPC)) {
            r = batch(adds(0, 3), NEVER_BY_TIME, false);
        }
        assertEquals(ExitCode.NOT_READY.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains("lines 1-3 ran but were not saved, so they are not done: "), r.err());
        assertFalse(r.err().contains("vdpactl: created"), "nothing reported done: " + r.err());
        assertEquals("", r.out());
        assertFalse(listed().contains("\nb0: type"));
    }
}
