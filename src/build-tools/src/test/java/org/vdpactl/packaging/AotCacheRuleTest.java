package org.vdpactl.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
}
