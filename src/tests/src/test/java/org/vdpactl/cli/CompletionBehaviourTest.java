package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The completion script as bash runs it: the script sourced, the words of a command line in COMP_WORDS, the
 * function bash calls on TAB, and what it offers. vdpactl itself is a stub that prints the names a state would
 * hold and which --fake-state it was asked about, so that the test sees where the names came from.
 */
class CompletionBehaviourTest {
    @TempDir
    Path dir;

    /** What the script offers for {@code words} (the last one being completed). */
    private List<String> offered(String... words) throws Exception {
        Path script = dir.resolve("vdpactl.bash");
        Files.writeString(script, CompletionScript.bash(Main.commandLine()));
        Path stub = dir.resolve("vdpactl");
        Files.writeString(stub, "#!/bin/bash\nstate=default\nfor a; do case $a in --fake-state=*) state=\"${a#--fake-state=}\";; esac; done\n"
                + "echo \"vdpa-of-$(basename \"$state\")\"\n");
        Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwx------"));
        StringBuilder array = new StringBuilder();
        array.append('"').append(stub).append('"');
        for (String w : words) {
            array.append(" \"").append(w).append('"');
        }
        String program = "source " + script + "\nCOMP_WORDS=(" + array + ")\nCOMP_CWORD=" + words.length
                + "\n_vdpactl_names\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n";
        Process bash = new ProcessBuilder("bash", "-c", program).redirectErrorStream(true).start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(bash.waitFor(1, TimeUnit.MINUTES));
        assertEquals(0, bash.exitValue(), out);
        return out.lines().filter(l -> !l.isEmpty()).toList();
    }

    /** The names came from the default state even after --fake-state FILE. */
    @Test
    void namesComeFromTheStateTheCommandLineNames() throws Exception {
        assertEquals(List.of("vdpa-of-s1.json"), offered("--fake-state", dir.resolve("s1.json").toString(), "dev", "show", ""));
        assertEquals(List.of("vdpa-of-s2.json"), offered("--fake-state=" + dir.resolve("s2.json"), "dev", "del", ""));
        assertEquals(List.of("vdpa-of-default"), offered("dev", "show", ""));
    }

    /**
     * Every command whose positional parameter is labelled DEV completes device names, found in the command tree
     * (no list to extend for a new command): the vhost commands, rehearse, doctor and migrate check (which the
     * hand-typed list had left out); dev add's NAME is a new name and gets none.
     */
    @Test
    void everyCommandTakingDevCompletesDeviceNames() throws Exception {
        for (String[] words : List.of(new String[] {"vhost", "suspend", ""}, new String[] {"vhost", "resume", ""},
                new String[] {"vhost", "info", ""}, new String[] {"rehearse", ""}, new String[] {"doctor", ""},
                new String[] {"migrate", "check", ""})) {
            assertEquals(List.of("vdpa-of-default"), offered(words), String.join(" ", words));
        }
        assertTrue(!offered("dev", "add", "").contains("vdpa-of-default"));
    }

    /** dev vstats show NAME <TAB> offered device names again; after the name comes the queue. */
    @Test
    void vstatsOffersTheQueueAfterTheName() throws Exception {
        assertEquals(List.of("vdpa-of-default"), offered("dev", "vstats", "show", ""));
        assertEquals(List.of("qidx", "--qidx", "--all"), offered("dev", "vstats", "show", "vdpa0", ""));
        assertEquals(List.of("qidx"), offered("dev", "vstats", "vdpa0", "q"));
        assertEquals(List.of(), offered("dev", "vstats", "vdpa0", "qidx", ""));
    }

    /** Options whose values are a known set complete them (they completed nothing). */
    @Test
    void enumeratedOptionsHaveTheirValues() {
        CommandLine root = Main.commandLine();
        CommandLine bench = root.getSubcommands().get("bench").getSubcommands().get("orchestration");
        assertContains(bench, "--preset", "mlx5-612");
        assertContains(bench, "--window", "in-place");
        CommandLine rehearse = root.getSubcommands().get("rehearse");
        assertContains(rehearse, "--compare", "mlx5-pre612,mlx5-612");
        assertContains(rehearse, "--page-size", "2M");
        assertContains(rehearse, "--strategy", "svq");
    }

    private static void assertContains(CommandLine cmd, String option, String value) {
        Iterable<String> values = cmd.getCommandSpec().findOption(option).completionCandidates();
        assertNotNull(values, option + " completes nothing");
        List<String> list = new ArrayList<>();
        values.forEach(list::add);
        assertTrue(list.contains(value), option + " offers " + list);
    }
}
