package org.vdpactl.cli.host;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/** Whether a standard stream is a terminal, by isatty(3) through JNR-POSIX. */
public final class Terminal {
    /** Standard error's fd. */
    private static final int STDERR = 2;
    private static final int STDOUT = 1;

    private Terminal() {
    }

    /**
     * True when fd 2 is a terminal: where progress is drawn ({@code System.console()} asks about stdin
     * and stdout, so {@code rehearse > out.json} drew nothing on a terminal and {@code 2> run.log} filled
     * the log with carriage returns). False where JNR-POSIX cannot load.
     */
    public static boolean stderrIsTerminal() {
        return HostPosix.posix().map(p -> p.isatty(STDERR) == 1).orElse(false);
    }

    /**
     * The columns of the terminal stdout goes to, or empty when stdout is no terminal (isatty(1)) or its size cannot be
     * read. A shell keeps COLUMNS to itself unless it is exported, so a command that read only COLUMNS wrapped at its
     * default on every terminal. The size is TIOCGWINSZ's, asked through stty(1) on the controlling terminal as picocli's
     * own auto width does: JNR-POSIX binds no ioctl, and a terminal's width is no kernel fact for the ABI layer.
     */
    public static OptionalInt stdoutColumns() {
        if (!HostPosix.posix().map(p -> p.isatty(STDOUT) == 1).orElse(false)) {
            return OptionalInt.empty();
        }
        try {
            Process stty = new ProcessBuilder("stty", "size").redirectInput(new File("/dev/tty"))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String size;
            try (var in = stty.getInputStream()) {
                // waited for first, its few bytes sit in the pipe meanwhile: a stty that hangs cannot hang doctor
                if (!stty.waitFor(2, TimeUnit.SECONDS) || stty.exitValue() != 0) {
                    stty.destroyForcibly();
                    return OptionalInt.empty();
                }
                size = new String(in.readNBytes(64), StandardCharsets.US_ASCII).strip();
            }
            String[] rowsCols = size.split("\\s+");
            int cols = rowsCols.length == 2 ? Integer.parseInt(rowsCols[1]) : 0;
            return cols > 0 ? OptionalInt.of(cols) : OptionalInt.empty();
        } catch (IOException | NumberFormatException e) {
            return OptionalInt.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalInt.empty();
        }
    }
}
