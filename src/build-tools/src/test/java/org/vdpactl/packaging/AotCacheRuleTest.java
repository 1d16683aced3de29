package org.vdpactl.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.cli.Main;

/**
 * Which AOT cache a command line starts with (scripts/lib/aot-cache.sh, sourced by both launchers): a command on
 * the kernel backend gets the cache trained without the fake's commands (a JVM loads every class of its cache when
 * it starts, and the whole cache made {@code --backend kernel dev list} load the fake kernel and Jackson's data
 * binding), every other command the whole cache. The rule runs here as the launchers run it, in bash.
 */
class AotCacheRuleTest {
    private static final Path RULE = Path.of("scripts", "lib", "aot-cache.sh");

    @TempDir
    Path dir;

    /** The cache the rule gives {@code args} with VDPACTL_BACKEND set to {@code env} (never unset: auto asks the host). */
    private String cacheFor(String env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", "-c",
                "set -euo pipefail; . \"$0\"; vdpactl_aot_cache \"$@\"; printf '%s' \"$VDPACTL_AOT_CACHE\"",
                RULE.toAbsolutePath().toString(), dir.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("VDPACTL_BACKEND", env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the rule did not finish");
        assertEquals(0, p.exitValue(), out);
        return out.isEmpty() ? "" : Path.of(out).getFileName().toString();
    }

    private void bothCaches() throws IOException {
        Files.createFile(dir.resolve("vdpactl.aot"));
        Files.createFile(dir.resolve(ReleaseFiles.KERNEL_AOT));
    }

    @Test
    void aCommandOnTheKernelGetsTheKernelCacheHoweverTheBackendIsNamed() throws Exception {
        bothCaches();
        assertEquals("vdpactl-kernel.aot", cacheFor("auto", "--backend", "kernel", "dev", "list"));
        assertEquals("vdpactl-kernel.aot", cacheFor("auto", "--backend=KERNEL", "dev", "list"));
        assertEquals("vdpactl-kernel.aot", cacheFor("auto", "dev", "list", "--backend", "Kernel"), "--backend is inherited by subcommands");
        assertEquals("vdpactl-kernel.aot", cacheFor("kernel", "dev", "list"), "VDPACTL_BACKEND names the backend without --backend");
    }

    @Test
    void everyOtherCommandGetsTheWholeCache() throws Exception {
        bothCaches();
        assertEquals("vdpactl.aot", cacheFor("auto", "--backend", "fake", "dev", "list"));
        assertEquals("vdpactl.aot", cacheFor("auto", "--backend=fake", "dev", "list"));
        assertEquals("vdpactl.aot", cacheFor("kernel", "--backend", "fake", "dev", "list"), "--backend overrides VDPACTL_BACKEND");
        assertEquals("vdpactl.aot", cacheFor("fake", "--version"));
        assertEquals("vdpactl.aot", cacheFor("fake", "dev", "add", "kernel", "--mgmtdev", "vdpasim_net"), "a device named kernel");
    }

    @Test
    void withoutTheKernelCacheTheWholeOneServesAndWithoutEitherNone() throws Exception {
        Files.createFile(dir.resolve("vdpactl.aot"));
        assertEquals("vdpactl.aot", cacheFor("auto", "--backend", "kernel", "dev", "list"));
        Files.delete(dir.resolve("vdpactl.aot"));
        assertEquals("", cacheFor("auto", "--backend", "kernel", "dev", "list"));
    }

    /** The training and the rule agree: each cache is trained on the command lines the rule gives it. */
    @Test
    void theKernelCacheIsTrainedOnTheLinesTheRuleGivesIt() throws Exception {
        bothCaches();
        List<String[]> all = AotTraining.commandLines(Main.commandLine(), Path.of("training", "fake-state.json"));
        List<String[]> kernel = AotTraining.kernelLines(all);
        assertTrue(kernel.stream().anyMatch(l -> String.join(" ", l).equals("--backend kernel dev list")), "no kernel dev list");
        for (String[] line : all) {
            boolean named = List.of(line).contains("--backend");
            if (!named) {
                continue; // help and --version: on the host's backend (auto); both caches are trained on them
            }
            boolean trainedForKernel = kernel.contains(line);
            assertEquals(trainedForKernel ? "vdpactl-kernel.aot" : "vdpactl.aot", cacheFor("auto", line), String.join(" ", line));
        }
        assertFalse(kernel.stream().anyMatch(AotTraining::onTheFake), "a fake command in the kernel cache's training");
        assertTrue(kernel.stream().anyMatch(l -> String.join(" ", l).equals("--version")), "--version not in the kernel cache");
    }

    /** The JVM flags the rule gives {@code args} (vdpactl_jvm_flags, as the launchers call it). */
    private static List<String> jvmFlagsFor(String... args) throws IOException, InterruptedException {
        return ruleArray("vdpactl_jvm_flags", "VDPACTL_JVM_FLAGS", args);
    }

    /** The array {@code array} that the rule's function {@code function} sets for {@code args}, one item a line. */
    private static List<String> ruleArray(String function, String array, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", "-c",
                "set -euo pipefail; . \"$0\"; " + function + " \"$@\"; printf '%s\\n' \"${" + array + "[@]}\"",
                RULE.toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the rule did not finish");
        assertEquals(0, p.exitValue(), out);
        return out.lines().toList();
    }

    @Test
    void aCommandRunsOnC1WithTheSerialCollectorAndTheJvmsWarningsOnStderr() throws Exception {
        for (String[] line : List.of(new String[] {"--version"}, new String[] {"--backend", "fake", "dev", "list"},
                new String[] {"dev", "add", "benchmark", "--mgmtdev", "vdpasim_net"})) {
            List<String> flags = jvmFlagsFor(line);
            assertTrue(flags.contains("-XX:TieredStopAtLevel=1"), String.join(" ", line) + ": " + flags);
            assertTrue(flags.contains("-XX:+UseSerialGC"), flags.toString());
            assertTrue(flags.indexOf("-Xlog:all=warning:stderr:uptime,level,tags") > flags.indexOf("-Xlog:disable"),
                    "the JVM's warnings would corrupt stdout: " + flags);
        }
    }

    @Test
    void aBenchmarkKeepsC2() throws Exception {
        List<String> flags = jvmFlagsFor("bench", "orchestration");
        assertFalse(flags.stream().anyMatch(f -> f.startsWith("-XX:TieredStopAtLevel")), flags.toString());
        assertTrue(flags.contains("-XX:+UseSerialGC"), flags.toString());
    }

    /**
     * A short command's C1 compiles only what runs often (compile thresholds 4x: less CPU on the compiler thread),
     * while a line that times what it drives, or runs a batch, keeps the default thresholds (its measured phases run
     * code the compiler would otherwise reach later).
     */
    @Test
    void onlyAShortCommandRaisesTheCompileThresholds() throws Exception {
        String raised = "-XX:CompileThresholdScaling=4";
        for (String[] line : List.of(new String[] {"--version"}, new String[] {"--backend", "fake", "dev", "list"},
                new String[] {"mgmtdev", "show", "--json"}, new String[] {"doctor"})) {
            assertTrue(jvmFlagsFor(line).contains(raised), String.join(" ", line) + ": " + jvmFlagsFor(line));
        }
        for (String[] line : List.of(new String[] {"rehearse", "--devices", "4"}, new String[] {"--backend", "fake", "vhost", "suspend-resume"},
                new String[] {"migrate", "check", "--rehearse"}, new String[] {"-b", "lines.txt"}, new String[] {"--batch=lines.txt"},
                new String[] {"--batch", "-", "--force"}, new String[] {"bench", "startup"})) {
            List<String> flags = jvmFlagsFor(line);
            assertFalse(flags.stream().anyMatch(f -> f.startsWith("-XX:CompileThresholdScaling")), String.join(" ", line) + ": " + flags);
        }
    }

    /** The JVM flags the rule gives a JVM on the AOT cache {@code cache} (vdpactl_aot_flags, as the launchers call it). */
    private static List<String> aotFlagsFor(String cache) throws IOException, InterruptedException {
        return ruleArray("vdpactl_aot_flags", "VDPACTL_AOT_FLAGS", cache);
    }

    /**
     * A JVM on a cache replays no training data: the caches hold no method profiles (theCachesAreTrainedWithoutMethodProfiles),
     * and the replay still cost a short command CPU; the flag is diagnostic, so it comes after the unlock. The cache's
     * notes stay off stdout.
     */
    @Test
    void aJvmOnACacheReplaysNoTrainingAndKeepsStdoutClean() throws Exception {
        List<String> flags = aotFlagsFor("/x/vdpactl.aot");
        assertEquals("-XX:AOTCache=/x/vdpactl.aot", flags.getFirst());
        int unlock = flags.indexOf("-XX:+UnlockDiagnosticVMOptions");
        assertTrue(unlock >= 0 && flags.indexOf("-XX:-AOTReplayTraining") > unlock, flags.toString());
        assertTrue(flags.indexOf("-Xlog:aot=error:stderr") > flags.indexOf("-Xlog:aot*=off:stdout"), flags.toString());
    }

    /** The build trains its caches in a JVM started as the launchers start a command (a cache keeps its collector's heap). */
    @Test
    void theBuildTrainsTheCachesWithTheLaunchersFlags() throws Exception {
        String pom = Files.readString(Path.of("src", "build-tools", "pom.xml"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("<argument>--jvm-flag</argument>\\s*<argument>([^<]+)</argument>").matcher(pom);
        List<String> trained = new ArrayList<>();
        while (m.find()) {
            trained.add(m.group(1));
        }
        assertFalse(trained.isEmpty(), "no --jvm-flag in the build's release-files execution");
        List<String> launchers = jvmFlagsFor("--version");
        assertTrue(launchers.containsAll(trained), "trained with " + trained + ", launched with " + launchers);
        assertTrue(trained.containsAll(launchers.stream().filter(f -> f.startsWith("-XX:")).toList()),
                "trained with " + trained + ", launched with " + launchers);
    }

    /**
     * Both caches are trained without JDK 25's method profiles (JEP 515): the launchers run C1 only, and a JVM
     * replays the profiles of its cache at start, which cost every command CPU for nothing.
     */
    @Test
    void theCachesAreTrainedWithoutMethodProfiles() {
        List<String> flags = ReleaseFiles.archiveFlags(25, dir);
        int unlock = flags.indexOf("-XX:+UnlockDiagnosticVMOptions");
        assertTrue(unlock >= 0 && flags.indexOf("-XX:-AOTRecordTraining") > unlock, "profiles recorded: " + flags);
        assertEquals("-XX:AOTCacheOutput=" + dir.resolve("vdpactl.aot"), flags.getLast());
        assertEquals(List.of("-XX:ArchiveClassesAtExit=" + dir.resolve("vdpactl.jsa")), ReleaseFiles.archiveFlags(24, dir),
                "a JDK before 25 has neither AOT caches nor the flag");
    }

    /** What follows the JVM flags to run vdpactl from {@code jar} on {@code cache} (vdpactl_main_args; "" for none). */
    private static List<String> mainArgsFor(String jar, String cache) throws IOException, InterruptedException {
        return ruleArray("vdpactl_main_args", "VDPACTL_MAIN_ARGS", jar, cache);
    }

    /**
     * On a cache the launchers run the jar's main class on the class path with the module option the caches are
     * trained with (the Java launcher read a -jar's central directory twice); without one, -jar, whose manifest grants
     * native access without the option the JDK's own CDS archive was dumped without.
     */
    @Test
    void onACacheTheMainClassRunsOnTheClassPathWithTheCachesModuleOptionAndWithoutOneTheJar() throws Exception {
        assertEquals(List.of(ReleaseFiles.NATIVE_ACCESS, "-cp", "/x/vdpactl-all.jar", Main.class.getName()),
                mainArgsFor("/x/vdpactl-all.jar", "/x/vdpactl.aot"));
        assertTrue(ReleaseFiles.archiveFlags(25, dir).contains(ReleaseFiles.NATIVE_ACCESS), ReleaseFiles.archiveFlags(25, dir).toString());
        assertEquals(List.of("-jar", "/x/vdpactl-all.jar"), mainArgsFor("/x/vdpactl-all.jar", ""));
    }

    /**
     * A cache trained as the build trains one ({@link ReleaseFiles#trainingCommand} with the AOT output flags) is taken
     * by a JVM started as the launchers start a command on it (the rule's JVM, cache and main arguments). The JVM
     * refuses a cache whose module options or class path differ from its training's, and says so on stderr; a
     * restricted method called without native access warns there too. A stand-in jar whose main class links a
     * downcall, as vdpactl's does.
     */
    @Test
    void aCacheTrainedAsTheBuildTrainsItIsTakenByTheLaunchersCommandLine() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, "AOT caches need JDK 25; this JVM is " + Runtime.version());
        Path jar = standInJar();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> launcherFlags = jvmFlagsFor("--version");
        List<String> trainingFlags = launcherFlags.stream().filter(f -> f.startsWith("-XX:")).toList(); // the pom's --jvm-flag
        Path batch = Files.writeString(dir.resolve("training.batch"), "--version\n");
        Process training = new ProcessBuilder(ReleaseFiles.trainingCommand(java, trainingFlags, ReleaseFiles.archiveFlags(25, dir),
                jar, batch)).redirectErrorStream(true).redirectOutput(dir.resolve("training.log").toFile()).start();
        assertTrue(training.waitFor(2, TimeUnit.MINUTES), "the training did not finish");
        Path cache = dir.resolve("vdpactl.aot");
        assertTrue(Files.exists(cache), Files.readString(dir.resolve("training.log")));

        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(launcherFlags);
        cmd.addAll(aotFlagsFor(cache.toString()));
        cmd.addAll(mainArgsFor(jar.toString(), cache.toString()));
        cmd.add("--version");
        Process p = new ProcessBuilder(cmd).redirectError(dir.resolve("stderr").toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(1, TimeUnit.MINUTES), "the command did not finish");
        assertEquals("", Files.readString(dir.resolve("stderr")), "the JVM's complaint, started as " + cmd);
        assertEquals(0, p.exitValue());
        assertEquals("linked\n", out);
    }

    /** A jar holding only a class named as vdpactl's main class, which links a downcall and prints "linked". */
    private Path standInJar() throws IOException, InterruptedException {
        Path src = Files.createDirectories(dir.resolve("src/org/vdpactl/cli")).resolve("Main.java");
        Files.writeString(src, """
                package org.vdpactl.cli;
                import java.lang.foreign.*;
                public class Main {
                    public static void main(String[] args) throws Throwable {
                        Linker linker = Linker.nativeLinker();
                        var getpid = linker.downcallHandle(linker.defaultLookup().find("getpid").orElseThrow(),
                                FunctionDescriptor.of(ValueLayout.JAVA_INT));
                        System.out.println((int) getpid.invokeExact() > 0 ? "linked" : "no pid");
                    }
                }
                """);
        Path classes = dir.resolve("classes");
        Process javac = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-d",
                classes.toString(), src.toString()).redirectErrorStream(true).start();
        String log = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(javac.waitFor(1, TimeUnit.MINUTES) && javac.exitValue() == 0, log);
        Path jar = dir.resolve("vdpactl-all.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("org/vdpactl/cli/Main.class"));
            out.write(Files.readAllBytes(classes.resolve("org/vdpactl/cli/Main.class")));
            out.closeEntry();
        }
        return jar;
    }
}
