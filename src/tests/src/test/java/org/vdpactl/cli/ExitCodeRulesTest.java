package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One rule per condition, whichever command meets it (README "Exit codes"): a command group without its
 * subcommand is a usage error with the usage on stderr; an errno gives one exit code whichever call met it;
 * a path named on the command line that does not exist is NOT_FOUND, input or output.
 */
class ExitCodeRulesTest {
    @TempDir
    Path dir;

    private CliRun fake(String... args) {
        return CliRun.onVirtualFake(dir.resolve("state.json"), args);
    }

    /** Every group, the root too: none prints its usage as data or exits 0 when its subcommand was forgotten. */
    @ParameterizedTest
    @ValueSource(strings = {"bench", "report", "vhost", "migrate", "mgmtdev", ""})
    void aGroupWithoutItsSubcommandIsAUsageErrorWithTheUsageOnStderr(String group) throws Exception {
        String[] args = group.isEmpty() ? new String[0] : new String[] {group};
        CliRun r = fake(args);
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), group + ": " + r.err() + r.out());
        assertEquals("", r.out(), group + ": nothing on stdout");
        assertTrue(r.err().contains("Usage: vdpactl"), group + ": the usage on stderr: " + r.err());
        assertTrue(r.err().contains("vdpactl: missing subcommand: give one of "), r.err());

        String[] json = group.isEmpty() ? new String[] {"-j"} : new String[] {"-j", group};
        CliRun j = fake(json);
        assertEquals(ExitCode.USAGE.code(), j.exitCode(), group + " -j: " + j.err());
        JsonNode doc = new ObjectMapper().readTree(j.out()); // the error document alone, no usage text
        assertEquals(ExitCode.USAGE.code(), doc.at("/error/exit").asInt(), j.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"bench", "report", "vhost", "mgmtdev", "dev"})
    void theUsageAskedForIsDataOnStdout(String group) {
        CliRun r = fake(group, "--help");
        assertEquals(ExitCode.OK.code(), r.exitCode(), r.err());
        assertTrue(r.out().contains("Usage: vdpactl " + group), r.out());
    }

    /** EPERM is PERMISSION on VHOST_VDPA_SUSPEND as on open (it was KERNEL_ERROR there: one errno, two codes). */
    @ParameterizedTest
    @ValueSource(strings = {"open", "VHOST_VDPA_SUSPEND"})
    void eppermIsPermissionWhicheverCallMetIt(String call) throws Exception {
        Path rules = Files.writeString(dir.resolve("eperm.json"),
                "[{\"device\":\"mlx5-0\",\"call\":\"" + call + "\",\"errno\":\"EPERM\"}]");
        CliRun r = fake("--fake-faults", rules.toString(), "vhost", "suspend", "mlx5-0");
        assertEquals(ExitCode.PERMISSION.code(), r.exitCode(), call + ": " + r.err() + r.out());
        assertTrue(r.noStackTrace(), r.err());
    }

    /** Devices failing with errnos of different codes: KERNEL_ERROR; some failing, some not: PARTIAL. */
    @Test
    void mixedFailuresOfASuspendKeepTheirRules() throws Exception {
        Path mixed = Files.writeString(dir.resolve("mixed.json"), "[{\"device\":\"mlx5-0\",\"call\":\"VHOST_VDPA_SUSPEND\","
                + "\"errno\":\"EPERM\"},{\"device\":\"mlx5-1\",\"call\":\"VHOST_VDPA_SUSPEND\",\"errno\":\"EIO\"}]");
        assertEquals(ExitCode.KERNEL_ERROR.code(), fake("--fake-faults", mixed.toString(), "vhost", "suspend", "mlx5-0", "mlx5-1")
                .exitCode());
        assertEquals(ExitCode.PARTIAL.code(), fake("--fake-faults", mixed.toString(), "vhost", "suspend", "mlx5-0", "mlx5-2")
                .exitCode());
    }

    /** Each input file named on the command line, missing: NOT_FOUND, as the output directory of --report is. */
    @Test
    void aMissingInputFileIsNotFoundAsAMissingOutputDirectoryIs() throws Exception {
        String missing = dir.resolve("no-such-file.json").toString();
        Path host = Files.writeString(dir.resolve("host.json"), "{}");
        List<String[]> cases = List.of(
                new String[] {"rehearse", "--report", dir.resolve("no-such-dir/r.html").toString()},
                new String[] {"--fake-faults", missing, "dev", "list"},
                new String[] {"rehearse", "--memory-layout", missing},
                new String[] {"report", "merge", missing},
                new String[] {"--batch", missing});
        for (String[] c : cases) {
            CliRun r = fake(c);
            assertEquals(ExitCode.NOT_FOUND.code(), r.exitCode(), String.join(" ", c) + ": " + r.err());
            assertEquals(1, r.errorLines(), String.join(" ", c) + ": one line: " + r.err());
            assertTrue(r.err().contains("no-such"), r.err());
        }
        // a file that is there but not what it should be stays bad input
        CliRun bad = fake("--fake-faults", host.toString(), "dev", "list");
        assertEquals(ExitCode.USAGE.code(), bad.exitCode(), bad.err());
    }

    /** The batch file's line says why it cannot be read (it printed the path twice: the JDK's message of the error). */
    @Test
    void anUnreadableBatchFileSaysWhy() {
        String missing = dir.resolve("b.txt").toString();
        CliRun r = fake("--batch", missing);
        assertEquals("vdpactl: --batch " + missing + ": cannot read it (No such file or directory)", r.err().strip());
    }
}
