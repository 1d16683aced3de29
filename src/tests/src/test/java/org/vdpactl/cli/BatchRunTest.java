package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.testsupport.SeparateJvm;

/**
 * {@code --batch FILE}: every line runs with the options given before {@code --batch} and as the
 * caller (not as root), and no line, in any spelling, starts another batch.
 */
class BatchRunTest {
    @TempDir
    Path dir;

    private Path batch(String... lines) throws Exception {
        return Files.writeString(dir.resolve("b.txt"), String.join("\n", lines) + "\n");
    }

    private CliRun as(CallerIdentity caller, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), caller, args);
        return CliRun.checked(args, code, out.toString(), err.toString());
    }

    @Test
    void theStateFileGivenBeforeBatchIsTheOneEveryLineUses() throws Exception {
        Path state = dir.resolve("s.json");
        Path xdg = Files.createDirectories(dir.resolve("xdg"));
        Path file = batch("dev add x1 --mgmtdev vdpasim_net");
        // its own JVM with its own XDG_STATE_HOME: a line that ignored --fake-state writes there, never the user's state
        Process p = SeparateJvm.start(Main.class, Map.of("XDG_STATE_HOME", xdg.toString()), dir.resolve("out"), dir.resolve("err"),
                "--backend", "fake", "--fake-state", state.toString(), "--batch", file.toString());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("err")));
        assertTrue(Files.readString(state).contains("\"x1\""), "x1 is in the --fake-state file");
        assertFalse(Files.exists(xdg.resolve("vdpactl")), "the default state was not touched");
    }

    @Test
    void jsonAndFaultsGivenBeforeBatchApplyToEveryLine() throws Exception {
        Path state = dir.resolve("s.json");
        Path faults = Files.writeString(dir.resolve("f.json"), "[{\"device\":\"mlx5-0\",\"call\":\"open\",\"errno\":\"EIO\"}]");
        Path file = batch("dev list", "vhost info mlx5-0");
        CliRun r = as(CallerIdentity.ROOT, "--backend", "fake", "--fake-state", state.toString(), "--fake-faults", faults.toString(),
                "-j", "--batch", file.toString());
        assertEquals(ExitCode.KERNEL_ERROR.code(), r.exitCode(), r.err());
        assertTrue(r.out().startsWith("{\"dev\":{"), "dev list printed JSON: " + r.out());
        assertTrue(r.out().contains("{\"schema\":\"vdpactl.error\""), "the failing line's error document: " + r.out());
        assertTrue(r.err().contains("EIO"), "the fault fired: " + r.err());
    }

    @Test
    void aLineOfItsOwnOptionWins() throws Exception {
        Path state = dir.resolve("s.json");
        Path other = dir.resolve("other.json");
        Path file = batch("--fake-state " + other + " dev add x2 --mgmtdev vdpasim_net");
        CliRun r = as(CallerIdentity.ROOT, "--backend", "fake", "--fake-state", state.toString(), "--batch", file.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(Files.readString(other).contains("\"x2\""));
        assertFalse(Files.exists(state));
    }

    @Test
    void linesRunAsTheCallerNotAsRoot() throws Exception {
        Path state = dir.resolve("s.json");
        CallerIdentity nobody = new CallerIdentity(65534, 65534, List.of(), false);
        CliRun direct = as(nobody, "--backend", "fake", "--fake-state", state.toString(), "dev", "add", "x3", "--mgmtdev", "vdpasim_net");
        assertEquals(ExitCode.PERMISSION.code(), direct.exitCode(), direct.err());
        CliRun batched = as(nobody, "--backend", "fake", "--fake-state", state.toString(), "--batch",
                batch("dev add x3 --mgmtdev vdpasim_net").toString());
        assertEquals(ExitCode.PERMISSION.code(), batched.exitCode(), batched.err());
        CliRun del = as(nobody, "--backend", "fake", "--fake-state", state.toString(), "--batch", batch("dev del vdpa0").toString());
        assertEquals(ExitCode.PERMISSION.code(), del.exitCode(), del.err());
    }

    @Test
    void aLineThatStartsABatchInAnySpellingIsRefused() throws Exception {
        Path state = dir.resolve("s.json");
        Path file = dir.resolve("b.txt");
        for (String line : List.of("--batch=" + file, "-b" + file, "-b " + file, "--batch " + file, "-j --batch=" + file)) {
            Files.writeString(file, line + "\n");
            CliRun r = as(CallerIdentity.ROOT, "--backend", "fake", "--fake-state", state.toString(), "--batch", file.toString());
            assertEquals(ExitCode.USAGE.code(), r.exitCode(), line + ": " + r.err());
            assertTrue(r.noStackTrace(), line + ": " + r.err());
            assertTrue(r.err().contains("a batch line cannot start another batch"), line + ": " + r.err());
        }
    }

    @Test
    void aCommandAfterBatchOrForceWithoutBatchIsRefused() throws Exception {
        Path state = dir.resolve("s.json");
        CliRun r = as(CallerIdentity.ROOT, "--backend", "fake", "--fake-state", state.toString(), "--batch", batch("dev list").toString(),
                "dev", "list");
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains("--batch runs the command lines of its file"), r.err());
        CliRun f = as(CallerIdentity.ROOT, "--backend", "fake", "--fake-state", state.toString(), "--force", "dev", "list");
        assertEquals(ExitCode.USAGE.code(), f.exitCode(), f.err());
        assertTrue(f.err().contains("--force needs --batch"), f.err());
    }
}
