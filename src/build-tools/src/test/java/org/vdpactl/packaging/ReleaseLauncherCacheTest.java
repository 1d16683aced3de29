package org.vdpactl.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive's launcher (src/build-tools/src/dist/bin/vdpactl) gives the JVM the AOT cache only on the
 * JDK that trained it: the IMPLEMENTOR and JAVA_RUNTIME_VERSION lines of the JDK's release file, read by the shell
 * itself, against lib/vdpactl.aot.jdk ({@link ReleaseFiles#jdkIdentity}); on any other JDK the class-data-sharing
 * archive in the user's cache. Run in bash as a user runs it, with a stand-in JDK whose java prints its arguments.
 */
class ReleaseLauncherCacheTest {
    @TempDir
    Path tmp;

    @Test
    void theTrainingJdkGetsTheCacheEvenWithoutAFinalNewlineInItsReleaseFile() throws Exception {
        Path jdk = jdk("IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"25.0.1\"\nJAVA_RUNTIME_VERSION=\"25.0.1+9-LTS\"");
        Path home = release(jdk);
        List<String> args = launch(home, jdk);
        assertTrue(args.contains("-XX:AOTCache=" + home.resolve("lib/vdpactl.aot")), "the trained JDK: " + args);
        assertTrue(args.contains("-XX:-AOTReplayTraining"), "the rule's flags for a cache: " + args);
        assertFalse(args.contains("-XX:+AutoCreateSharedArchive"), args.toString());
        assertEquals(List.of(ReleaseFiles.NATIVE_ACCESS, "-cp", home.resolve("lib/vdpactl-all.jar").toString(),
                org.vdpactl.cli.Main.class.getName(), "--version"), args.subList(args.size() - 5, args.size()),
                "on the cache, the main class on the class path with the module option the cache was trained with: " + args);
    }

    @Test
    void anotherBuildOfTheSameVersionGetsTheUsersArchiveInstead() throws Exception {
        Path jdk = jdk("IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"25.0.1\"\nJAVA_RUNTIME_VERSION=\"25.0.1+9-LTS\"\n");
        Path home = release(jdk);
        Files.writeString(jdk.resolve("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"25.0.1\"\nJAVA_RUNTIME_VERSION=\"25.0.1+10\"\n");
        List<String> args = launch(home, jdk);
        assertFalse(args.stream().anyMatch(a -> a.startsWith("-XX:AOTCache=")), "a cache of another JDK build: " + args);
        assertTrue(args.contains("-XX:+AutoCreateSharedArchive"), args.toString());
        assertFalse(args.contains("-XX:-AOTReplayTraining"), "no cache, nothing to replay: " + args);
        assertEquals(List.of("-jar", home.resolve("lib/vdpactl-all.jar").toString(), "--version"), args.subList(args.size() - 3, args.size()),
                "without the cache, the jar (its manifest grants native access): " + args);
        assertFalse(args.contains(ReleaseFiles.NATIVE_ACCESS), "the option would cost the JDK's archive its module graph: " + args);
    }

    /** The release's launcher takes its JVM flags from the rule scripts/vdpactl uses (lib/aot-cache.sh), benchmarks too. */
    @Test
    void theJvmFlagsAreTheRulesForACommandAndForABenchmark() throws Exception {
        Path jdk = jdk("IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"25.0.1\"\nJAVA_RUNTIME_VERSION=\"25.0.1+9-LTS\"\n");
        Path home = release(jdk);
        List<String> command = launch(home, jdk, "--version");
        assertTrue(command.containsAll(List.of("-Xlog:disable", "-Xlog:all=warning:stderr:uptime,level,tags",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CompileThresholdScaling=4")), command.toString());
        List<String> timed = launch(home, jdk, "rehearse");
        assertFalse(timed.contains("-XX:CompileThresholdScaling=4"), "a timed command keeps the thresholds: " + timed);
        List<String> bench = launch(home, jdk, "bench", "orchestration");
        assertTrue(bench.contains("-XX:+UseSerialGC"), bench.toString());
        assertFalse(bench.stream().anyMatch(a -> a.startsWith("-XX:TieredStopAtLevel")), "a benchmark runs C2: " + bench);
        assertEquals(List.of("bench", "orchestration"), bench.subList(bench.size() - 2, bench.size()));
    }

    /** A JDK at tmp/jdk: bin/javac, a bin/java that prints one argument per line, and {@code release}. */
    private Path jdk(String release) throws IOException {
        Path jdk = Files.createDirectories(tmp.resolve("jdk/bin")).getParent();
        executable(jdk.resolve("bin/javac"), "#!/bin/sh\n");
        executable(jdk.resolve("bin/java"), "#!/bin/sh\nprintf '%s\\n' \"$@\"\n");
        Files.writeString(jdk.resolve("release"), release);
        return jdk;
    }

    /** The archive's layout: bin/vdpactl, lib/ with the two shell libraries, the jar, the cache and its JDK's identity. */
    private Path release(Path jdk) throws IOException {
        Path home = tmp.resolve("vdpactl");
        Files.createDirectories(home.resolve("bin"));
        Files.createDirectories(home.resolve("lib"));
        Path launcher = home.resolve("bin/vdpactl");
        Files.copy(Path.of("src/build-tools/src/dist/bin/vdpactl"), launcher, StandardCopyOption.REPLACE_EXISTING);
        launcher.toFile().setExecutable(true);
        Files.copy(Path.of("scripts/lib/jdk.sh"), home.resolve("lib/jdk.sh"));
        Files.copy(Path.of("scripts/lib/aot-cache.sh"), home.resolve("lib/aot-cache.sh"));
        Files.writeString(home.resolve("lib/vdpactl-all.jar"), "");
        Files.writeString(home.resolve("lib/vdpactl.aot"), "");
        Files.writeString(home.resolve("lib/" + ReleaseFiles.AOT_JDK), ReleaseFiles.jdkIdentity(jdk));
        return home;
    }

    private List<String> launch(Path home, Path jdk) throws IOException, InterruptedException {
        return launch(home, jdk, "--version");
    }

    private List<String> launch(Path home, Path jdk, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", home.resolve("bin/vdpactl").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("JAVA_HOME", jdk.toString());
        pb.environment().put("VDPACTL_BACKEND", "fake");
        pb.environment().put("XDG_CACHE_HOME", tmp.resolve("cache").toString());
        pb.environment().remove("VDPACTL_NO_CDS");
        pb.environment().remove("VDPACTL_JAVA_OPTS");
        Process p = pb.redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the launcher did not finish");
        assertEquals(0, p.exitValue(), out);
        return out.lines().toList();
    }

    private static void executable(Path p, String text) throws IOException {
        Files.writeString(p, text);
        p.toFile().setExecutable(true);
    }
}
