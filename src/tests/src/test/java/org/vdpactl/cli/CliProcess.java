package org.vdpactl.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.vdpactl.testsupport.SeparateJvm;

/**
 * vdpactl as an operator runs it: {@link Main} in a JVM of its own (its own pid, stdout and stderr),
 * the streams kept in files of {@code dir} so that a test can read stderr while the command still runs.
 */
final class CliProcess {
    private final Process process;
    private final Path out;
    private final Path err;
    private final String[] args;

    private CliProcess(Process process, Path out, Path err, String[] args) {
        this.process = process;
        this.out = out;
        this.err = err;
        this.args = args;
    }

    /** Starts vdpactl with args; label names its output files in dir. */
    static CliProcess start(Path dir, String label, String... args) throws IOException {
        Path out = dir.resolve(label + ".out");
        Path err = dir.resolve(label + ".err");
        return new CliProcess(SeparateJvm.start(Main.class, out, err, args), out, err, args);
    }

    /** Sends it {@code signal} ("TERM", "INT") as an operator's kill(1) would. */
    void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** What it printed on stderr so far. */
    String errSoFar() throws IOException {
        return Files.readString(err);
    }

    /** Returns once it printed {@code text} on stderr; fails the test if it ends first or has not printed it in time. */
    void awaitErr(String text, long time, TimeUnit unit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(time);
        while (!errSoFar().contains(text)) {
            if (!process.isAlive() && !errSoFar().contains(text)) {
                throw new AssertionError(String.join(" ", args) + " ended (exit " + process.exitValue() + ") without printing \""
                        + text + "\"; stderr: " + errSoFar());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(String.join(" ", args) + " did not print \"" + text + "\" in " + time + " "
                        + unit.toString().toLowerCase() + "; stderr: " + errSoFar());
            }
            Thread.sleep(50);
        }
    }

    /**
     * Its result once it ended, its JSON checked against the shipped schemas; when it still runs
     * after the given time the test fails, naming what it printed.
     */
    CliRun await(long time, TimeUnit unit) throws IOException, InterruptedException {
        if (!process.waitFor(time, unit)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", args) + " still ran after " + time + " " + unit.toString().toLowerCase()
                    + "; stderr: " + errSoFar());
        }
        return CliRun.checked(args, process.exitValue(), Files.readString(out), errSoFar());
    }
}
