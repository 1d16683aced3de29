package org.vdpactl.cli;

import java.io.PrintStream;
import java.io.PrintWriter;

/**
 * Whether what a command printed reached standard output. Java's print streams swallow write
 * errors (a full disk, /dev/full, a closed pipe), so without this check {@code dev list > /dev/full}
 * exited 0 with every line lost.
 */
final class StdoutCheck {
    private StdoutCheck() {
    }

    /**
     * {@code code}, or {@link ExitCode#NOT_READY} with one line on {@code err} when writing {@code stdout}
     * failed: the data is lost, so the command did not succeed (a failed command keeps its own code).
     */
    static int afterRun(int code, PrintWriter out, PrintStream stdout, PrintWriter err) {
        out.flush();
        if (!stdout.checkError()) {
            return code;
        }
        err.println("vdpactl: cannot write standard output (its file system is full, it is /dev/full, or the reader "
                + "closed it): what the command printed is lost");
        err.flush();
        return code == ExitCode.OK.code() ? ExitCode.NOT_READY.code() : code;
    }
}
