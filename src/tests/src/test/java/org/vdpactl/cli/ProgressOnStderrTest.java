package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Progress is drawn on stderr, so whether stderr is a terminal decides it (isatty(2)), not
 * {@code System.console()} (stdin and stdout): {@code rehearse -j > out.json} on a terminal showed
 * nothing, {@code 2> run.log} filled the log with carriage returns. Run through script(1), which gives
 * the command a pseudo-terminal as a person's shell would.
 */
class ProgressOnStderrTest {
    @TempDir
    Path dir;

    private String inTerminal(String redirect, String... args) throws Exception {
        StringBuilder cmd = new StringBuilder("'" + Path.of(System.getProperty("java.home"), "bin", "java") + "'"
                + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED -cp '" + System.getProperty("java.class.path") + "' " + Main.class.getName());
        for (String a : args) {
            cmd.append(" '").append(a).append("'");
        }
        cmd.append(' ').append(redirect);
        Path transcript = dir.resolve("transcript");
        Process p = new ProcessBuilder(List.of("script", "-qfec", cmd.toString(), transcript.toString()))
                .redirectInput(ProcessBuilder.Redirect.PIPE).redirectOutput(dir.resolve("script.out").toFile())
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "still running");
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("script.out")));
        return Files.readString(transcript);
    }

    private String[] rehearsal(int iterations) {
        return new String[] {"--backend", "fake", "--fake-clock", "virtual", "--fake-state", dir.resolve("s.json").toString(), "-j",
                "rehearse", "--devices", "2", "--iterations", String.valueOf(iterations)};
    }

    @Test
    void stdoutToAFileStillShowsProgressOnTheTerminal() throws Exception {
        String terminal = inTerminal("> '" + dir.resolve("out.json") + "'", rehearsal(3));
        assertTrue(terminal.contains("iteration 3/3"), terminal);
        assertTrue(Files.readString(dir.resolve("out.json")).startsWith("{"), "the document went to the file");
    }

    @Test
    void aSingleIterationShowsTheSetUp() throws Exception {
        String terminal = inTerminal("> '" + dir.resolve("out.json") + "'", rehearsal(1));
        assertTrue(terminal.contains("set-up done on 2 devices, rehearsing"), terminal);
    }

    @Test
    void stderrToALogGetsNoCarriageReturns() throws Exception {
        inTerminal("2> '" + dir.resolve("run.log") + "'", rehearsal(3));
        String log = Files.readString(dir.resolve("run.log"));
        assertFalse(log.contains("\r") || log.contains("iteration"), log);
    }
}
