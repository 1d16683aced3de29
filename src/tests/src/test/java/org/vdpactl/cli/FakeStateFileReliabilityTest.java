package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.vdpactl.fake.state.StateFileFaults;
import org.vdpactl.sys.Errno;

/** The fake's state file under links, missing directories, dead writers and failing file systems (issue: reliability). */
class FakeStateFileReliabilityTest {

    private static void assertOneLine(CliRun r, ExitCode expected, String mentions) {
        assertEquals(expected.code(), r.exitCode(), () -> "exit code\nstderr: " + r.err());
        assertTrue(r.noStackTrace(), () -> "stack trace printed:\n" + r.err());
        assertEquals(1, r.errorLines(), () -> "not one vdpactl: line:\n" + r.err());
        assertTrue(r.err().contains(mentions), () -> "stderr does not mention '" + mentions + "':\n" + r.err());
    }

    @Test
    void aSymlinkedStateIsWrittenThroughAndStaysALink(@TempDir Path dir) throws Exception {
        Path real = dir.resolve("real").resolve("state.json");
        Files.createDirectories(real.getParent());
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), real);
        assertEquals(0, CliRun.onFake(link, "dev", "add", "s1", "--mgmtdev", "vdpasim_net").exitCode());
        assertEquals(0, CliRun.onFake(link, "dev", "add", "s2", "--mgmtdev", "vdpasim_net").exitCode());
        assertTrue(Files.isSymbolicLink(link), "the save replaced the link with a regular file");
        String target = Files.readString(real);
        assertTrue(target.contains("\"s1\"") && target.contains("\"s2\""), "the link's target missed a change:\n" + target);
        assertTrue(CliRun.onFake(real, "dev", "list").out().contains("s2:"), "the state forked");
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("link.json", "real"), files.map(p -> p.getFileName().toString()).sorted().toList(),
                    "the state's files belong next to the target, not the link");
        }
    }

    @Test
    void aDanglingLinkGetsItsTargetCreatedAndStaysALink(@TempDir Path dir) throws Exception {
        Path real = dir.resolve("state.json");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), Path.of("state.json")); // relative, as ln -s makes it
        assertEquals(0, CliRun.onFake(link, "dev", "list").exitCode());
        assertEquals(0, CliRun.onFake(link, "dev", "add", "d1", "--mgmtdev", "vdpasim_net").exitCode());
        assertTrue(Files.isSymbolicLink(link), "the save replaced the dangling link");
        assertTrue(Files.readString(real).contains("\"d1\""));
    }

    @Test
    void aLinkLoopIsRefused(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a.json");
        Files.createSymbolicLink(a, dir.resolve("b.json"));
        Files.createSymbolicLink(dir.resolve("b.json"), a);
        assertOneLine(CliRun.onFake(a, "dev", "list"), ExitCode.USAGE, "Too many levels of symbolic links");
    }

    @Test
    void readOnlyCommandsCreateNothing(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("nonexistent-dir").resolve("sub").resolve("state.json");
        for (String[] cmd : new String[][] {{"dev", "list"}, {"mgmtdev", "list"}, {"dev", "show", "vdpa0"}, {"dev", "config", "vdpa0"}}) {
            CliRun r = CliRun.onFake(state, cmd);
            assertEquals(0, r.exitCode(), String.join(" ", cmd) + ": " + r.err());
        }
        assertFalse(Files.exists(dir.resolve("nonexistent-dir")), "a read-only command created the state's directory");
    }

    /** Read-only commands that open a node: their open is recorded only in a state that exists. */
    @Test
    void readOnlyCommandsThatOpenANodeCreateNothing(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("nonexistent-dir").resolve("sub").resolve("state.json");
        CliRun info = CliRun.onFake(state, "vhost", "info", "/dev/vhost-vdpa-0");
        assertEquals(0, info.exitCode(), info.err());
        CliRun doctor = CliRun.onFake(state, "doctor");
        assertTrue(doctor.noStackTrace(), doctor.err());
        CliRun vstats = CliRun.onFake(state, "dev", "vstats", "vdpa0");
        assertTrue(vstats.noStackTrace(), vstats.err());
        assertFalse(Files.exists(dir.resolve("nonexistent-dir")), "a read-only command created the state's directory");
    }

    /**
     * A rehearsal drives the devices, and what it changes (the vendor statistics its control-queue commands
     * count) is kept like any change of the fake kernel: on a path that holds no state it creates the state,
     * directory mode 0700, so the counters are there for the next command (the file's {@code vstats}), as a kernel
     * keeps them.
     */
    @Test
    void aRehearsalOnAPathWithoutStateCreatesItWithWhatItCounted(@TempDir Path dir) throws Exception {
        // the state's own directory is made; a missing directory above it is refused (OperatorHintsTest)
        Path state = dir.resolve("sub").resolve("state.json");
        CliRun r = CliRun.onFake(state, "--fake-clock", "virtual", "rehearse", "--iterations", "1");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("rwx------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(state.getParent())));
        assertTrue(Files.readString(state).contains("\"cvq requests\""), Files.readString(state));
    }

    @Test
    void theEmptyStatePathIsRefused() {
        assertOneLine(CliRun.of("--backend", "fake", "--fake-state", "", "dev", "list"), ExitCode.USAGE, "--fake-state: the empty path");
    }

    /** A writer killed between creating its temporary and renaming it leaves the temporary; the next writer removes it. */
    @Test
    void temporariesOfDeadWritersAreRemovedUnderTheLockAndLiveOnesKept(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("fake-state.json");
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        long dead = gone.pid();
        Path stale = Files.writeString(dir.resolve("fake-state.json.tmp-" + dead + "-1a2b"), "{");
        Path staleOpen = Files.writeString(dir.resolve("fake-state.json.open.tmp-" + dead + "-3c"), "[");
        Path live = Files.writeString(dir.resolve("fake-state.json.tmp-" + ProcessHandle.current().pid() + "-4d"), "{");
        Path old = Files.writeString(dir.resolve("fake-state.json.tmp-5e6f"), "{");
        assertEquals(0, CliRun.onFake(state, "dev", "list").exitCode());
        assertTrue(Files.exists(stale), "a read-only command deleted something");
        assertEquals(0, CliRun.onFake(state, "dev", "add", "t1", "--mgmtdev", "vdpasim_net").exitCode());
        assertFalse(Files.exists(stale), "the dead writer's temporary is left");
        assertFalse(Files.exists(staleOpen), "the dead writer's open-nodes temporary is left");
        assertTrue(Files.exists(live), "a live writer's temporary was removed");
        assertTrue(Files.exists(old), "a temporary without a pid was removed");
    }

    /** Names are bytes: what dev add was given is what the file holds and what comes back, byte for byte. */
    @Test
    void namesAreKeptByteExactInTheStateFile(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("fake-state.json");
        String name = "\u00f1am\u00e9-\u20ac-\uD83D\uDE00";
        assertEquals(0, CliRun.onFake(state, "dev", "add", name, "--mgmtdev", "vdpasim_net").exitCode());
        byte[] file = Files.readAllBytes(state);
        byte[] expected = ("\"" + name + "\"").getBytes(StandardCharsets.UTF_8);
        assertTrue(indexOf(file, expected) >= 0, "the file does not hold the name's UTF-8 bytes as given");
        CliRun list = CliRun.onFake(state, "--json", "dev", "show", name);
        assertEquals(0, list.exitCode(), list.err());
        assertTrue(list.out().contains(name), list.out());
        // and one more change keeps it (a load and a save in between)
        assertEquals(0, CliRun.onFake(state, "dev", "add", "other", "--mgmtdev", "vdpasim_net").exitCode());
        assertTrue(indexOf(Files.readAllBytes(state), expected) >= 0, "a later save altered the name");
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /**
     * One errno, one exit code, whichever command meets it: every command that must lock or write
     * the state ends with the same code for the same errno (tests run as root, who ignores modes,
     * so the file system's answer comes through {@link StateFileFaults}).
     */
    static Stream<Arguments> errnos() {
        return Stream.of(
                Arguments.of(StateFileFaults.Step.LOCK, Errno.EACCES, ExitCode.PERMISSION, "Permission denied"),
                Arguments.of(StateFileFaults.Step.LOCK, Errno.EPERM, ExitCode.PERMISSION, "Operation not permitted"),
                Arguments.of(StateFileFaults.Step.WRITE, Errno.EACCES, ExitCode.PERMISSION, "Permission denied"),
                Arguments.of(StateFileFaults.Step.WRITE, Errno.ENOSPC, ExitCode.NOT_READY, "No space left on device"),
                Arguments.of(StateFileFaults.Step.WRITE, Errno.EDQUOT, ExitCode.NOT_READY, "Disk quota exceeded"),
                Arguments.of(StateFileFaults.Step.LOCK, Errno.EROFS, ExitCode.NOT_READY, "Read-only file system"));
    }

    @ParameterizedTest
    @MethodSource("errnos")
    void oneErrnoOneExitCodeWhicheverCommandMeetsIt(StateFileFaults.Step step, int errno, ExitCode expected, String reason,
                                                     @TempDir Path dir) throws Exception {
        Path state = dir.resolve("fake-state.json");
        assertEquals(0, CliRun.onFake(state, "dev", "add", "victim", "--mgmtdev", "vdpasim_net").exitCode());
        String[][] commands = {
            {"dev", "add", "n1", "--mgmtdev", "vdpasim_net"},
            {"dev", "del", "victim"},
            {"dev", "set", "victim", "--mac", "02:00:00:00:00:09"},
            {"vhost", "info", "victim"},
            {"rehearse", "vdpa0", "--iterations", "1"},
        };
        try (AutoCloseable fault = StateFileFaults.inject(dir, step, errno)) {
            for (String[] cmd : commands) {
                CliRun r = CliRun.onFake(state, cmd);
                String what = String.join(" ", cmd) + " with " + Errno.name(errno) + " on " + step;
                assertEquals(expected.code(), r.exitCode(), () -> what + ": " + r.err());
                assertTrue(r.noStackTrace(), () -> what + ": " + r.err());
                assertTrue(r.err().contains(reason), () -> what + ": " + r.err());
            }
        }
        assertTrue(CliRun.onFake(state, "dev", "list").out().contains("victim:"), "a failed command changed the state");
    }

    /** An ordinary user (nobody) on root's state, directory 0755 and file 0644: it may read, not change. */
    @Test
    void nobodyOnRootsStateExits4WhicheverCommandAndReadsFine() throws Exception {
        RealUser.assumeSetprivToNobody();
        Path dir = Files.createTempDirectory("vdpactl-nobody-");
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path stateDir = Files.createDirectory(dir.resolve("st"));
            Path state = stateDir.resolve("fake-state.json");
            assertEquals(0, CliRun.onFake(state, "dev", "add", "victim", "--mgmtdev", "vdpasim_net").exitCode());
            Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rw-r--r--"));
            Path jars = Files.createDirectory(dir.resolve("cp"));
            RealUser.Result list = RealUser.runAsNobody(state, jars, "dev", "list");
            assertEquals(0, list.exitCode(), list.err());
            assertTrue(list.out().contains("victim:"), list.out());
            for (String[] cmd : new String[][] {{"dev", "del", "victim"}, {"vhost", "info", "victim"}}) {
                RealUser.Result r = RealUser.runAsNobody(state, jars, cmd);
                assertEquals(ExitCode.PERMISSION.code(), r.exitCode(), String.join(" ", cmd) + ": " + r.err());
                assertTrue(r.err().contains("Permission denied"), r.err());
                assertFalse(r.err().contains("\tat "), r.err());
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The same as a real process meets it: a state directory of mode 0555 and a process without CAP_DAC_OVERRIDE. */
    @Test
    void aRealProcessThatCannotWriteTheStateDirectoryExits4WhicheverCommand(@TempDir Path dir, @TempDir Path logs) throws Exception {
        RealUser.assumeCapabilitiesCanBeDropped();
        Path stateDir = Files.createDirectory(dir.resolve("st"));
        Path state = stateDir.resolve("fake-state.json");
        assertEquals(0, CliRun.onFake(state, "dev", "add", "victim", "--mgmtdev", "vdpasim_net").exitCode());
        Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            for (String[] cmd : new String[][] {{"dev", "add", "n1", "--mgmtdev", "vdpasim_net"}, {"dev", "set", "victim", "--mac", "02:00:00:00:00:09"}}) {
                RealUser.Result r = RealUser.runWithoutCapabilities(state, logs, cmd);
                assertEquals(ExitCode.PERMISSION.code(), r.exitCode(), String.join(" ", cmd) + ": " + r.err());
                assertTrue(r.err().contains("Permission denied"), r.err());
                assertFalse(r.err().contains("\tat "), r.err());
            }
        } finally {
            Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("rwx------"));
        }
        assertTrue(CliRun.onFake(state, "dev", "list").out().contains("victim:"));
    }
}
