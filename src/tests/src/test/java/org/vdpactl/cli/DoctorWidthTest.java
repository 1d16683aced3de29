package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * doctor on a terminal wraps at the terminal's width: it read only COLUMNS, which a shell keeps to itself unless
 * exported, so it wrapped at 100 columns on every terminal. Run through script(1) (a pseudo-terminal, as a person's
 * shell) whose size is set with stty, COLUMNS not exported.
 */
class DoctorWidthTest {
    @TempDir
    Path dir;

    private List<String> doctorOnATerminalOf(int columns, String exported) throws Exception {
        String cmd = "stty cols " + columns + "; " + exported + "'" + Path.of(System.getProperty("java.home"), "bin", "java") + "'"
                + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED -cp '"
                + System.getProperty("java.class.path") + "' " + Main.class.getName() + " --backend fake --fake-clock virtual"
                + " --fake-state '" + dir.resolve("s.json") + "' doctor";
        Path transcript = dir.resolve("transcript-" + columns);
        ProcessBuilder pb = new ProcessBuilder(List.of("script", "-qfec", cmd, transcript.toString()))
                .redirectInput(ProcessBuilder.Redirect.PIPE).redirectOutput(dir.resolve("script.out").toFile()).redirectErrorStream(true);
        pb.environment().remove("COLUMNS");
        Process p = pb.start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "still running");
        String text = Files.readString(transcript).replace("\r", "");
        assertTrue(text.contains("host READY") || text.contains("host NOT READY"), text);
        // script(1) frames the transcript with its own "Script started/done" lines
        return text.lines().filter(l -> !l.isBlank() && !l.startsWith("Script started on ") && !l.startsWith("Script done on ")).toList();
    }

    private static void assertFits(List<String> lines, int columns) {
        List<String> longer = lines.stream().filter(l -> l.length() > columns).toList();
        assertEquals(List.of(), longer, "lines wider than the terminal's " + columns + " columns in:\n" + String.join("\n", lines));
    }

    @Test
    void eightyColumnsAreKept() throws Exception {
        List<String> lines = doctorOnATerminalOf(80, "");
        assertFits(lines, 80);
        assertTrue(lines.stream().anyMatch(l -> l.length() > 70), "the width is used, not a narrower default");
    }

    /** Narrower than a title column and a detail: each title on its line, the detail under it. */
    @Test
    void aNarrowTerminalGetsTitlesOnTheirOwnLines() throws Exception {
        assertFits(doctorOnATerminalOf(56, ""), 56);
    }

    /** COLUMNS, when exported, is the user's choice and wins over the terminal's size (as for ls). */
    @Test
    void anExportedColumnsWins() throws Exception {
        assertFits(doctorOnATerminalOf(120, "COLUMNS=72 "), 72);
    }
}
