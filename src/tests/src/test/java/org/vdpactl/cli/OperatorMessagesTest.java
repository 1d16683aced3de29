package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.mgmt.IprouteMacSyntax;
import org.vdpactl.testsupport.SeparateJvm;

/**
 * The lines an operator gets for inputs that were answered without saying what was wrong or what to do: each says
 * what it met and what to change, in one line of a readable length.
 */
class OperatorMessagesTest {
    @TempDir
    Path dir;

    private CliRun fake(String... args) {
        return CliRun.onVirtualFake(dir.resolve("state.json"), args);
    }

    /** A device name of a MiB was echoed whole in the one-line error. */
    @Test
    void aHugeNameIsShownByItsStartAndLength() {
        CliRun r = fake("dev", "add", "a".repeat(1 << 20), "--mgmtdev", "vdpasim_net");
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err().substring(0, Math.min(300, r.err().length())));
        assertEquals(1, r.err().lines().count(), "one line");
        assertTrue(r.err().length() < 400, "a readable line, not the name: " + r.err().length() + " characters");
        assertTrue(r.err().contains("... (1048576 characters, 1048576 bytes) must be 1 to 255 bytes"), r.err());
    }

    /** Any message of a megabyte (an unknown option echoed) is cut in the middle, keeping where the reason is. */
    @Test
    void anyHugeMessageIsCutToOneReadableLine() {
        CliRun r = fake("dev", "list", "--" + "x".repeat(1 << 20));
        assertEquals(ExitCode.USAGE.code(), r.exitCode());
        String line = r.err().lines().findFirst().orElseThrow();
        assertTrue(line.length() <= ErrorReporter.MAX_MESSAGE_CHARS + 100, line.length() + " characters");
        assertTrue(line.contains(" characters left out ...] "), line);
    }

    /** vhost suspend mlx5-0 mlx5-0 was answered with EBUSY "held open by" its own pid. */
    @Test
    void aDeviceGivenTwiceIsSaidSo() {
        CliRun twice = fake("vhost", "suspend", "mlx5-0", "mlx5-0");
        assertEquals(ExitCode.USAGE.code(), twice.exitCode(), twice.err());
        assertTrue(twice.err().contains("vdpactl: mlx5-0 is given twice (/dev/vhost-vdpa-"), twice.err());
        assertTrue(!twice.err().contains("held open"), twice.err());
        CliRun alias = fake("vhost", "suspend", "mlx5-0", "mlx5-1", "/dev/vhost-vdpa-2");
        assertEquals(ExitCode.USAGE.code(), alias.exitCode(), alias.err());
        assertTrue(alias.err().contains(" are the same device (/dev/vhost-vdpa-2): give each device once"), alias.err());
    }

    /** Names that list like another name: invisible characters, bidi controls, a decomposed twin. */
    @Test
    void namesThatLookLikeOthersAreRefusedWithTheCharacterNamed() {
        record Case(String name, String why) {
        }
        for (Case c : List.of(new Case("vdpa\u200b0", "contains U+200B"), new Case("\u202evdpa0", "contains U+202E"),
                new Case("vdpa\u20600", "contains U+2060"),
                new Case("cafe\u0301", "is not in Unicode's composed form (NFC): it would list exactly like its composed twin \"caf\u00e9\""))) {
            CliRun r = fake("dev", "add", c.name(), "--mgmtdev", "vdpasim_net");
            assertEquals(ExitCode.USAGE.code(), r.exitCode(), c.name() + ": " + r.err());
            assertTrue(r.err().contains(c.why()), r.err());
            // the line itself shows the hidden character as an escape, not as nothing
            assertTrue(!r.err().contains("\u200b") && !r.err().contains("\u202e") && !r.err().contains("\u2060"), r.err());
        }
        assertEquals(0, fake("dev", "add", "caf\u00e9", "--mgmtdev", "vdpasim_net").exitCode(), "the composed form is taken");
    }

    /** 02:00:00:00:00:0 (a digit left out) was taken without the warning its siblings (02:00) get. */
    @Test
    void aOneDigitGroupIsWarnedAbout() {
        assertNotNull(IprouteMacSyntax.read("02:00:00:00:00:0").unusualForm());
        assertEquals("02:00:00:00:00:00", IprouteMacSyntax.read("02:00:00:00:00:0").address().toString());
        assertNull(IprouteMacSyntax.read("02:00:00:00:00:07").unusualForm());
    }

    /** VDPACTL_BACKEND=bogus was reported as the option alone. */
    @Test
    void aBadBackendFromTheEnvironmentNamesTheVariable() throws Exception {
        Path out = dir.resolve("env.out");
        Path err = dir.resolve("env.err");
        Process p = SeparateJvm.start(Main.class, Map.of("VDPACTL_BACKEND", "bogus"), out, err,
                "--fake-state", dir.resolve("state.json").toString(), "dev", "list");
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        assertEquals(ExitCode.USAGE.code(), p.exitValue(), Files.readString(err));
        assertTrue(Files.readString(err).contains("unknown backend 'bogus' (from the environment variable VDPACTL_BACKEND"),
                Files.readString(err));
    }

    /** On 6.1 the same RESUME note was printed once per device; and a single window read "1 iterations". */
    @Test
    void aNoteSharedByDevicesIsSaidOnceNamingThem() {
        CliRun r = fake("--fake-kernel", "6.1", "rehearse", "vdpa0", "vdpa1", "--memory", "64M");
        assertEquals(0, r.exitCode(), r.err() + r.out());
        assertEquals(1, r.out().lines().filter(l -> l.contains("no RESUME (VHOST_BACKEND_F_RESUME not offered)")).count(), r.out());
        assertTrue(r.out().contains("vdpa0, vdpa1: no RESUME"), r.out());
        assertTrue(!r.out().contains(" 1 iterations"), r.out());
    }

    /** --devices 16 next to simulators answered "only 4 usable vDPA devices" without saying why the others did not count. */
    @Test
    void tooFewDevicesSaysWhyTheSoftwareOnesDoNotCount() {
        CliRun r = fake("rehearse", "--devices", "16");
        assertEquals(ExitCode.NOT_FOUND.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains("left out while hardware is present: name them as DEV arguments"), r.err());
        assertTrue(r.err().contains("vdpa0"), r.err());
    }

    /** --stop-and-copy rehearses the source side only: options for the destination were taken and did nothing. */
    @Test
    void stopAndCopyRefusesWhatItWouldIgnoreAndLabelsItsWindow() {
        for (String[] extra : List.of(new String[] {"--premap"}, new String[] {"--strategy", "svq"}, new String[] {"--window", "in-place"})) {
            List<String> args = new ArrayList<>(List.of("rehearse", "--stop-and-copy", "--devices", "1", "--memory", "64M"));
            args.addAll(List.of(extra));
            CliRun r = fake(args.toArray(String[]::new));
            assertEquals(ExitCode.USAGE.code(), r.exitCode(), String.join(" ", extra) + ": " + r.err());
            assertTrue(r.err().contains("would have no effect: drop one of them"), r.err());
        }
        CliRun run = fake("rehearse", "--stop-and-copy", "--devices", "1", "--memory", "64M");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("Downtime (first suspend -> end of the last call (no resume: the source side only)"), run.out());
        assertTrue(!run.out().contains("last resume"), run.out());
    }

    /** rehearse --memory 100T: "mmap: ENOMEM" said neither the size nor what to change. */
    @Test
    void guestMemoryTheHostCannotMapSaysTheSizeAndWhatToChange() {
        CliRun r = fake("rehearse", "--memory", "100T", "--regions", "1T");
        assertTrue(r.err().contains("of the guest memory, 109951162777600 bytes (102400 GiB"), r.err() + r.out());
        assertTrue(r.err().contains("give a smaller --memory"), r.err());
        assertTrue(r.noStackTrace(), r.err());
    }
}
