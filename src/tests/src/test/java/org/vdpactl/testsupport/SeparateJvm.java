package org.vdpactl.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts a class of this build's test class path in a separate OS process, as another vdpactl
 * process on the same host would run: its own JVM, pid and start time. The flags keep start-up
 * cheap (C1 only, serial GC, the JDK's CDS archive) because tests start several at once on small
 * machines. The child starts with SIGINT and SIGTERM at their default dispositions, as a command an
 * operator types gets them: a test run in the background of a non-interactive shell (nohup, CI
 * runners) inherits SIGINT ignored, and the JVM then installs no handler for it, so a test that
 * sends SIGINT would see nothing happen.
 */
public final class SeparateJvm {
    private SeparateJvm() {
    }

    /** A started JVM running mainClass with args; stdout and stderr go to the given files. */
    public static Process start(Class<?> mainClass, Path stdout, Path stderr, String... args) throws IOException {
        return start(mainClass, Map.of(), stdout, stderr, args);
    }

    /** As {@link #start(Class, Path, Path, String...)} with {@code env} added to (or replacing in) the environment. */
    public static Process start(Class<?> mainClass, Map<String, String> env, Path stdout, Path stderr, String... args)
            throws IOException {
        return start(List.of(), mainClass, env, stdout, stderr, args);
    }

    /**
     * As {@link #start(Class, java.util.Map, Path, Path, String...)}, run by {@code wrapper} (a command that
     * runs its arguments, e.g. {@code prlimit --nofile=1024:1024 --}).
     */
    public static Process start(List<String> wrapper, Class<?> mainClass, Map<String, String> env, Path stdout,
            Path stderr, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.addAll(List.of("env", "--default-signal=INT,TERM",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        pb.environment().putAll(env);
        return pb.start();
    }

    /**
     * Starts {@code mainClass} with {@code args} (stdout and stderr into {@code dir}'s {@code label}.out and .err) and
     * returns once its stdout shows {@code ready}: a helper process (a node holder, a lock holder) that has done its
     * part. Fails when it exits first, or has not printed it within five minutes.
     */
    public static Process startAndAwait(Class<?> mainClass, Path dir, String label, String ready, String... args)
            throws IOException, InterruptedException {
        Path out = dir.resolve(label + ".out");
        Path err = dir.resolve(label + ".err");
        Process p = start(mainClass, out, err, args);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!Files.exists(out) || !Files.readString(out).contains(ready)) {
            if (!p.isAlive() || System.nanoTime() - deadline > 0) {
                p.destroyForcibly();
                throw new AssertionError(mainClass.getSimpleName() + (p.isAlive() ? " did not print \"" + ready + "\" in time"
                        : " exited") + ": " + (Files.exists(err) ? Files.readString(err) : ""));
            }
            Thread.sleep(50);
        }
        return p;
    }
}
