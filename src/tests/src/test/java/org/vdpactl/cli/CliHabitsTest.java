package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an operator's hands and eyes meet: doctor's verdict, iproute2's words, completion, vhost info, usage lines, credentials. */
class CliHabitsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private CliRun fake(String... args) {
        return CliRun.onFake(dir.resolve("state.json"), args);
    }

    @Test
    void doctorsFirstLineSaysWhatItsExitCodeJudges() throws Exception {
        CliRun r = fake("doctor");
        String first = r.out().lines().findFirst().orElse("");
        boolean hostHasVdpa = Backends.kernelHasVdpa();
        assertEquals(hostHasVdpa ? 0 : 8, r.exitCode(), r.out());
        assertTrue(first.startsWith(hostHasVdpa ? "host READY (exit 0): this host's kernel can drive vDPA devices"
                : "host NOT READY (exit 8): this host's kernel cannot drive vDPA devices"), first);
        assertTrue(r.out().contains("simulated and do not count"), r.out());
        JsonNode doc = JSON.readTree(fake("--json", "doctor").out());
        assertEquals(hostHasVdpa, doc.get("ready").asBoolean());
        assertTrue(doc.get("verdict").asText().startsWith("host "), doc.toString());
    }

    @Test
    void doctorsTableKeepsItsColumnsWhateverTheLengthOfTheText() {
        CliRun r = fake("doctor");
        for (String line : r.out().lines().toList()) {
            assertTrue(line.length() <= 100, "line of " + line.length() + " characters:\n" + line);
            if (line.startsWith(" ")) {
                assertTrue(line.startsWith(" ".repeat(41)) && line.charAt(41) != ' ', "a continuation under the detail column: " + line);
            }
        }
        assertTrue(r.out().lines().anyMatch(l -> l.matches("OK    /dev/vhost-vdpa-\\d \\(simulated\\) backend features")),
                "a title longer than its column stands alone: " + r.out());
    }

    @Test
    void iproute2WordFormsWork() throws Exception {
        JsonNode plain = JSON.readTree(fake("--json", "dev", "config", "vdpa0").out());
        CliRun show = fake("--json", "dev", "config", "show", "vdpa0");
        assertEquals(0, show.exitCode(), show.err());
        assertEquals(plain, JSON.readTree(show.out()));
        assertEquals(JSON.readTree(fake("--json", "dev", "config").out()), JSON.readTree(fake("--json", "dev", "config", "show").out()));
        // the same request either way: the fake answers both with EAGAIN until a driver set FEATURES_OK
        CliRun vs = fake("dev", "vstats", "show", "mlx5-0", "qidx", "1");
        CliRun own = fake("dev", "vstats", "mlx5-0", "--qidx", "1");
        assertEquals(own.exitCode(), vs.exitCode(), vs.err());
        assertEquals(own.err(), vs.err());
        assertTrue(vs.err().contains("VDPA_CMD_DEV_VSTATS_GET mlx5-0 qidx 1"), vs.err());
        CliRun mgmt = fake("--json", "mgmtdev", "show");
        assertEquals(0, mgmt.exitCode(), mgmt.err());
        CliRun twice = fake("dev", "vstats", "mlx5-0", "qidx", "1", "--qidx", "1");
        assertEquals(ExitCode.USAGE.code(), twice.exitCode(), twice.err());
        assertTrue(twice.err().contains("give the queue once"), twice.err());
    }

    @Test
    void completionOffersTheValuesOfEveryEnumeratedOption() throws Exception {
        String script = CliRun.of("generate-completion").out();
        for (String values : List.of("(\"auto\" \"kernel\" \"fake\")", "(\"serial\" \"parallel\" \"pipelined\" \"svq\")",
                "(\"migration\" \"in-place\")", "(\"real\" \"virtual\")", "(\"6.1\" \"6.12\" \"7.2\" \"oldest\"")) {
            assertTrue(script.contains(values), "completion lacks the values " + values);
        }
        assertEquals(List.of("parallel", "pipelined"), complete(script, "vdpactl", "rehearse", "--strategy", "p"));
        assertEquals(List.of("in-place"), complete(script, "vdpactl", "rehearse", "--window", "i"));
    }

    @Test
    void completionOffersTheNamesThatExistAskingVdpactl() throws Exception {
        CliRun names = fake("__complete", "devices");
        assertEquals(0, names.exitCode(), names.err());
        assertTrue(names.out().lines().toList().containsAll(List.of("vdpa0", "mlx5-0")), names.out());
        assertTrue(fake("__complete", "mgmtdevs").out().lines().anyMatch(l -> l.equals("vdpasim_net")));
        assertEquals("", fake("__complete", "nonsense").out());
        String script = CliRun.of("generate-completion").out();
        // the script asks "vdpactl __complete KIND": a shell function stands in for the binary here
        String stub = "vdpactl() { case \"$2\" in devices) printf 'vdpa0\\nvdpa1\\nmlx5-0\\n';; mgmtdevs) printf 'vdpasim_net\\npci/0000:08:00.2\\n';; esac; }\n";
        assertEquals(List.of("vdpa0", "vdpa1"), complete(stub + script, "vdpactl", "dev", "del", "vd"));
        assertEquals(List.of("mlx5-0"), complete(stub + script, "vdpactl", "vhost", "info", "m"));
        assertEquals(List.of("pci/0000:08:00.2"), complete(stub + script, "vdpactl", "dev", "add", "x", "--mgmtdev", "p"));
        assertEquals(List.of("vdpasim_net"), complete(stub + script, "vdpactl", "mgmtdev", "show", "v"));
    }

    /** What bash completes for the last of {@code words} with the script loaded (the stub first, when given). */
    private List<String> complete(String script, String... words) throws Exception {
        Path file = Files.writeString(dir.resolve("completion.bash"), script);
        StringBuilder cmd = new StringBuilder("source " + file + " >/dev/null 2>&1; COMP_WORDS=(");
        for (String w : words) {
            cmd.append('\'').append(w).append("' ");
        }
        cmd.append("); COMP_CWORD=").append(words.length - 1).append("; COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}; ")
                .append("_vdpactl_names; printf '%s\\n' \"${COMPREPLY[@]}\"");
        // stderr dropped: compopt complains outside a real completion, which changes nothing here
        Process p = new ProcessBuilder("bash", "-c", cmd.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "bash did not finish");
        return out.lines().map(String::strip).filter(l -> !l.isEmpty()).sorted().toList();
    }

    @Test
    void vhostInfoPrintsTheConfigSpaceAsFields() {
        CliRun r = fake("vhost", "info", "vdpa0");
        assertEquals(0, r.exitCode(), r.err());
        assertFalse(r.out().contains("NetConfig["), r.out());
        assertTrue(r.out().contains("\nconfig:\n  MAC:"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("  status: +0x1 \\(LINK_UP\\)")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("  MTU: +\\d+")), r.out());
        // vdpasim_net offers neither F_MQ nor F_SPEED_DUPLEX nor F_RSS: those fields are not valid, so not shown
        for (String invalid : List.of("max VQ pairs:", "speed:", "duplex:", "RSS max key size:", "supported hash types:")) {
            assertFalse(r.out().contains("  " + invalid), invalid + "\n" + r.out());
        }
    }

    @Test
    void vhostInfoJsonLeavesOutTheConfigFieldsTheFeaturesDoNotMakeValid() throws Exception {
        JsonNode config = JSON.readTree(fake("--json", "vhost", "info", "vdpa0").out()).get("config");
        List<String> keys = new ArrayList<>();
        config.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("length", "mac", "status", "mtu"), keys, config.toString());
    }

    @Test
    void usageLinesDoNotBreakInsideAnOptionsValue() {
        ArrayDeque<picocli.CommandLine> todo = new ArrayDeque<>(List.of(Main.commandLine()));
        int checked = 0;
        while (!todo.isEmpty()) {
            picocli.CommandLine cl = todo.pop();
            String help = cl.getUsageMessage(picocli.CommandLine.Help.Ansi.OFF);
            String synopsis = help.substring(0, help.indexOf("\n\n") < 0 ? help.length() : help.indexOf("\n\n"));
            for (String line : synopsis.lines().toList()) {
                // every option in brackets opened on a line closes on it: "[--fake-kernel=6.1|6." / "12|7.2]" does not
                for (int at = line.indexOf("[-"); at >= 0; at = line.indexOf("[-", at + 1)) {
                    assertTrue(line.indexOf(']', at) > 0, "an option broken at the end of the line: " + line + "\n" + synopsis);
                }
                assertTrue(line.length() <= 80, "usage line of " + line.length() + " characters: " + line);
            }
            checked++;
            cl.getSubcommands().values().stream().distinct().forEach(todo::add);
        }
        assertTrue(checked > 20, "every command's usage: " + checked);
    }

    @Test
    void anUnprivilegedCallerCannotAddADeviceOnTheFake() {
        CallerIdentity nobody = new CallerIdentity(65534, 65534, List.of(), false);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), nobody, "--backend", "fake", "--fake-state",
                dir.resolve("state.json").toString(), "dev", "add", "vdpa9", "--mgmtdev", "vdpasim_net");
        assertEquals(ExitCode.PERMISSION.code(), code, err.toString());
        assertTrue(err.toString().contains("EPERM") || err.toString().contains("Operation not permitted"), err.toString());
        StringWriter list = new StringWriter();
        assertEquals(0, Main.run(new PrintWriter(list, true), new PrintWriter(new StringWriter(), true), nobody, "--backend", "fake",
                "--fake-state", dir.resolve("state.json").toString(), "dev", "list"));
        assertFalse(list.toString().contains("vdpa9"), list.toString());
        CallerIdentity admin = new CallerIdentity(65534, 65534, List.of(), true);
        assertEquals(0, Main.run(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), admin, "--backend", "fake",
                "--fake-state", dir.resolve("state.json").toString(), "dev", "add", "vdpa9", "--mgmtdev", "vdpasim_net"), err.toString());
    }

    @Test
    void theCallersIdentityComesFromProcSelfStatus() {
        CallerIdentity c = CallerIdentity.parse(List.of("Name:\tjava", "Uid:\t1000\t1000\t1000\t1001", "Gid:\t100\t100\t100\t101",
                "Groups:\t24 27 ", "CapEff:\t0000000000001000"));
        assertEquals(new CallerIdentity(1001, 101, List.of(24, 27), true), c);
        assertFalse(CallerIdentity.parse(List.of("Uid:\t0\t0\t0\t0", "Gid:\t0\t0\t0\t0", "Groups:", "CapEff:\t0000000000000fff"))
                .capNetAdmin());
    }
}
