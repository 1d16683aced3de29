package org.vdpactl.cli.host;

/** Whether a standard stream is a terminal, by isatty(3) through JNR-POSIX. */
public final class Terminal {
    /** Standard error's fd. */
    private static final int STDERR = 2;

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
}
