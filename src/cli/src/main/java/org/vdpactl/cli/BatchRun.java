package org.vdpactl.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.vdpactl.sys.InputFile;

/**
 * {@code vdpactl --batch FILE}: one command line a line, run in this JVM one after the other, as
 * iproute2's {@code ip -batch} and {@code vdpa -batch} do. Blank lines and lines starting with
 * {@code #} are skipped; words split on blanks, with single and double quotes and backslash escapes as
 * in a shell. The run stops at the first command that fails (its exit code) unless {@code --force},
 * which goes on and ends with the last failure's code. Consecutive dev add lines share one opened backend and
 * are saved together ({@link BatchGroup}). The build trains the start-up archive with it.
 */
final class BatchRun {
    /** A batch file larger than this is refused: a command list, not a data file. */
    static final long MAX_BYTES = 1 << 20;

    private BatchRun() {
    }

    /** The batch this thread runs, if any: a line that starts another one, in whatever spelling, is refused. */
    private static final ThreadLocal<String> RUNNING = new ThreadLocal<>();

    /**
     * Runs the commands of {@code file} ("-" for standard input) as {@code caller}, each with the
     * options given before {@code --batch} ({@code given}: a line's own option of the same name wins),
     * as iproute2 applies {@code -j} or {@code -n} to every line; returns the exit code.
     */
    static int run(String file, boolean force, BatchOptions given, CallerIdentity caller, PrintWriter out, PrintWriter err) {
        return run(file, force, given, caller, out, err, BatchGroup.Policy.DEFAULT);
    }

    /** As {@link #run(String, boolean, BatchOptions, CallerIdentity, PrintWriter, PrintWriter)}, saving dev add groups by {@code policy}. */
    static int run(String file, boolean force, BatchOptions given, CallerIdentity caller, PrintWriter out, PrintWriter err,
            BatchGroup.Policy policy) {
        String outer = RUNNING.get();
        if (outer != null) {
            err.println("vdpactl: --batch " + outer + ": a batch line cannot start another batch (" + file + ")");
            err.flush();
            return ExitCode.USAGE.code();
        }
        RUNNING.set(file);
        try {
            return runLines(file, force, given, caller, out, err, policy);
        } finally {
            RUNNING.remove();
        }
    }

    private static int runLines(String file, boolean force, BatchOptions given, CallerIdentity caller, PrintWriter out,
            PrintWriter err, BatchGroup.Policy policy) {
        List<String> lines;
        try {
            lines = read(file);
        } catch (IOException e) {
            // the reason, not the JDK's message (an AccessDeniedException's is the path alone); the errno decides the
            // exit code as for every file (ExitCodeMapper): ENOENT 3, EACCES 4, anything else that is no file here 2
            err.println("vdpactl: --batch " + file + ": cannot read it (" + InputFile.reason(e) + ")");
            err.flush();
            ExitCode code = ExitCodeMapper.of(e);
            return (code == ExitCode.KERNEL_ERROR ? ExitCode.USAGE : code).code();
        }
        try (StopSignals stop = StopSignals.install()) {
            BatchGroup group = BatchGroup.start(file, policy, out, err);
            int rc;
            try {
                rc = runLines(file, lines, force, given, caller, out, err, stop, group);
            } catch (RuntimeException | Error e) {
                group.finish();
                throw e;
            }
            // what the last group ran is saved (and reported) whatever ended the batch, a signal included
            ExitCode saved = group.finish();
            return rc == ExitCode.OK.code() ? saved.code() : rc;
        }
    }

    /**
     * The lines, in order. SIGINT or SIGTERM ends the batch, --force or not: the line running then stops at its
     * own safe point (a rehearsal, dev del --wait) or runs to its end (a dev add takes no time to finish), and no
     * later line runs; exit INTERRUPTED, saying which line was the last.
     */
    private static int runLines(String file, List<String> lines, boolean force, BatchOptions given, CallerIdentity caller,
            PrintWriter out, PrintWriter err, StopSignals stop, BatchGroup group) {
        int status = ExitCode.OK.code();
        for (int n = 0; n < lines.size(); n++) {
            if (stop.requested()) {
                group.save();
                err.println("vdpactl: --batch " + file + ": interrupted by " + stop.signalName() + ": line " + (n + 1)
                        + " and every later line not run");
                err.flush();
                return ExitCode.INTERRUPTED.code();
            }
            String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            List<String> words;
            try {
                words = words(line);
            } catch (IllegalArgumentException e) {
                err.println("vdpactl: --batch " + file + ":" + (n + 1) + ": " + e.getMessage());
                err.flush();
                return ExitCode.USAGE.code();
            }
            group.lineBegins(n + 1);
            int rc = Main.run(out, err, caller, given.before(words).toArray(String[]::new));
            ExitCode saved = group.lineEnded(rc);
            if (rc == ExitCode.OK.code()) {
                rc = saved.code();
            }
            if (rc == ExitCode.INTERRUPTED.code() || stop.requested()) {
                group.save();
                err.println("vdpactl: --batch " + file + ":" + (n + 1) + ": interrupted by "
                        + (stop.signalName() == null ? "a signal" : stop.signalName())
                        + " during this line: the batch stops here" + (force ? " (--force goes on after failures, not signals)" : "")
                        + "; no later line was run");
                err.flush();
                return ExitCode.INTERRUPTED.code();
            }
            if (rc != ExitCode.OK.code()) {
                status = rc;
                if (!force) {
                    err.println("vdpactl: --batch " + file + ":" + (n + 1) + ": stopped (exit " + rc + "; --force goes on)");
                    err.flush();
                    return rc;
                }
            }
        }
        return status;
    }

    private static List<String> read(String file) throws IOException {
        byte[] bytes;
        if (file.equals("-")) {
            bytes = readBounded(System.in);
        } else {
            Path p = Path.of(file);
            if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(p)) {
                if (!Files.exists(p)) {
                    throw new NoSuchFileException(file);
                }
                throw new IOException("not a regular file");
            }
            if (Files.size(p) > MAX_BYTES) {
                throw new IOException("larger than " + MAX_BYTES + " bytes");
            }
            try (InputStream in = Files.newInputStream(p)) {
                bytes = readBounded(in);
            }
        }
        return new String(bytes, StandardCharsets.UTF_8).lines().toList();
    }

    private static byte[] readBounded(InputStream in) throws IOException {
        byte[] b = in.readNBytes((int) MAX_BYTES + 1);
        if (b.length > MAX_BYTES) {
            throw new IOException("larger than " + MAX_BYTES + " bytes");
        }
        return b;
    }

    /** Splits a line into words: blanks separate, '…' and "…" quote, a backslash escapes the next character. */
    static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
                    w.append(line.charAt(++i));
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == '\\' && i + 1 < line.length()) {
                w.append(line.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("unterminated " + quote + " quote");
        }
        if (inWord) {
            out.add(w.toString());
        }
        return out;
    }
}
