package org.vdpactl.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Consecutive {@code dev add} lines of a batch, run on one opened backend and saved together. Each line used to open
 * the fake's state, add one device and write the whole state back (with an fsync): 20,000 lines rewrote a state that
 * grew to 20,000 devices 20,000 times and were not done in 240 s. A group keeps the backend open across its lines and
 * saves once: after {@link Policy#maxLines} lines or {@link Policy#maxNanos} of run time, before any other kind of line
 * (which then sees the saved state), after a line that fails, and at the end of the batch, a signal included.
 *
 * <p>Nothing a group reports is lost: the save is the state file's atomic replace, and the lines' own output (the
 * "created" lines, their JSON) is held until the save succeeded, then printed in order; when the save fails it is
 * dropped and one line says which lines are not done. A kill before the save leaves
 * the state as it was before the group, with none of the group's lines reported done, as if the batch had been killed
 * before them. A save that fails (another process made a device of the same name meanwhile, a full disk) says which
 * lines were run but not saved, and the batch ends with that failure's exit code as a failed line would.
 */
final class BatchGroup {
    /**
     * When a group is saved.
     *
     * @param maxLines a group saves after this many lines
     * @param maxNanos or once its first line is this long ago (what a kill may take back)
     * @param nanos    the clock of {@code maxNanos}
     */
    record Policy(int maxLines, long maxNanos, LongSupplier nanos) {
        static final Policy DEFAULT = new Policy(1000, 1_000_000_000L, System::nanoTime);
    }

    private static final ThreadLocal<BatchGroup> CURRENT = new ThreadLocal<>();

    private final String file;
    private final Policy policy;
    private final PrintWriter out;
    private final PrintWriter err;
    private final StringWriter heldOut = new StringWriter();
    private final StringWriter heldErr = new StringWriter();
    private Backend backend;
    private List<Object> key;
    private long openedAt;
    private int firstLine;
    private int lastLine;
    private int lines;
    /** The batch line being run now (1-based), and whether it runs in the group. */
    private int currentLine;
    private boolean currentInGroup;

    private BatchGroup(String file, Policy policy, PrintWriter out, PrintWriter err) {
        this.file = file;
        this.policy = policy;
        this.out = out;
        this.err = err;
    }

    /** The group of the batch this thread runs, or null outside a batch. */
    static BatchGroup current() {
        return CURRENT.get();
    }

    /** Starts this thread's group for a batch whose lines print to {@code out} and {@code err}. */
    static BatchGroup start(String file, Policy policy, PrintWriter out, PrintWriter err) {
        BatchGroup g = new BatchGroup(file, policy, out, err);
        CURRENT.set(g);
        return g;
    }

    /** Line {@code n} (1-based) of the batch begins. */
    void lineBegins(int n) {
        currentLine = n;
        currentInGroup = false;
    }

    /** The current line runs in the group: its output is held until the group is saved. */
    void join(picocli.CommandLine root) {
        currentInGroup = true;
        root.setOut(new PrintWriter(heldOut, true));
        root.setErr(new PrintWriter(heldErr, true));
    }

    /** The backend of a line in the group: the group's own while the line's backend options ({@code key}) are the same. */
    Backend backend(List<Object> key, Supplier<Backend> open) {
        if (backend != null && !key.equals(this.key)) {
            ExitCode saved = save();
            if (saved != ExitCode.OK) {
                throw new CliFailure(saved, "the batch's earlier lines were not saved (see above)");
            }
        }
        if (backend == null) {
            backend = open.get();
            this.key = key;
            openedAt = policy.nanos().getAsLong();
            firstLine = currentLine;
        }
        return backend;
    }

    /**
     * The current line ended with {@code rc}: a line of the group counts towards its save, and the group is saved when
     * it is full, old enough, or the line failed. Returns the exit code of the save (OK when none was due).
     */
    ExitCode lineEnded(int rc) {
        if (!currentInGroup) {
            return ExitCode.OK;
        }
        lastLine = currentLine;
        lines++;
        boolean due = rc != ExitCode.OK.code() || lines >= policy.maxLines()
                || policy.nanos().getAsLong() - openedAt >= policy.maxNanos();
        return due ? save() : ExitCode.OK;
    }

    /**
     * Saves and closes the group's backend, then prints what its lines held back; returns OK, or the exit code of a
     * save that failed (after one line naming the lines that were run but not saved).
     */
    ExitCode save() {
        ExitCode rc = ExitCode.OK;
        if (backend != null) {
            try {
                backend.saveState();
            } catch (RuntimeException e) {
                rc = ExitCodeMapper.of(e);
                // what the lines reported (created ..., their listing) did not happen: drop it, say so once
                heldOut.getBuffer().setLength(0);
                heldErr.getBuffer().setLength(0);
                heldErr.write("vdpactl: --batch " + file + ": " + linesWord() + " ran but " + (firstLine == lastLine ? "was" : "were")
                        + " not saved, so " + (firstLine == lastLine ? "it is" : "they are") + " not done: " + e.getMessage()
                        + System.lineSeparator());
            } finally {
                try {
                    backend.close();
                } catch (RuntimeException e) {
                    if (rc == ExitCode.OK) {
                        rc = ExitCodeMapper.of(e);
                        heldErr.write("vdpactl: --batch " + file + ": " + linesWord() + ": " + e.getMessage() + System.lineSeparator());
                    }
                }
                backend = null;
                key = null;
            }
        }
        lines = 0;
        release();
        return rc;
    }

    private String linesWord() {
        return firstLine == lastLine || lastLine == 0 ? "line " + firstLine : "lines " + firstLine + "-" + lastLine;
    }

    /** Prints the held output, stdout first (the data), then stderr. */
    private void release() {
        if (heldOut.getBuffer().length() > 0) {
            out.print(heldOut);
            heldOut.getBuffer().setLength(0);
        }
        out.flush();
        if (heldErr.getBuffer().length() > 0) {
            err.print(heldErr);
            heldErr.getBuffer().setLength(0);
        }
        err.flush();
    }

    /** Ends the batch's group: saves what is left; returns the save's exit code. */
    ExitCode finish() {
        try {
            return save();
        } finally {
            CURRENT.remove();
        }
    }
}
