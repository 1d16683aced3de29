package org.vdpactl.cli.rehearse;

import java.io.PrintWriter;
import org.vdpactl.cli.host.Terminal;
import org.vdpactl.orchestra.RehearsalListener;
import org.vdpactl.orchestra.Timeline;
import org.vdpactl.report.Durations;

/** A one-line progress display on stderr ("iteration 12/100, last downtime 4.21 ms"), redrawn in place. */
public final class ProgressLine implements RehearsalListener {
    private final PrintWriter err;
    private final String unit;
    private int width;

    ProgressLine(PrintWriter err, boolean simulated) {
        this.err = err;
        this.unit = simulated ? " ms (simulated)" : " ms";
    }

    /**
     * Progress only makes sense where stderr, which it is drawn on, is a terminal; elsewhere (pipes, CI
     * logs, {@code 2> run.log}) nothing is drawn.
     */
    public static RehearsalListener forTerminal(PrintWriter err, boolean simulated, int iterations) {
        return forTerminal(err, simulated, iterations, Terminal.stderrIsTerminal());
    }

    static RehearsalListener forTerminal(PrintWriter err, boolean simulated, int iterations, boolean stderrIsTerminal) {
        return stderrIsTerminal ? new ProgressLine(err, simulated) : RehearsalListener.NONE;
    }

    /** The set-up can take long (many devices, much memory): say it is done, so a single iteration shows progress too. */
    @Override
    public void setUpDone(int devices) {
        String line = "set-up done on " + devices + (devices == 1 ? " device" : " devices") + ", rehearsing";
        err.print("\r" + line);
        width = line.length();
        err.flush();
    }

    @Override
    public void iterationDone(int index, int total, Timeline timeline) {
        String line = "iteration " + (index + 1) + "/" + total + ", last downtime " + Durations.ms(timeline.downtimeNanos()) + unit;
        err.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
        width = line.length();
        if (index + 1 == total) {
            err.print("\r" + " ".repeat(width) + "\r");
        }
        err.flush();
    }
}
