package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.testsupport.SeparateJvm;

/**
 * Eight separate vdpactl processes (their own JVMs, pids and file locks, as Ansible forks or CI shards
 * run them) on one fake state file: every invocation exits 0, no device is lost, every listing and
 * the state file parse. The 64-process version of this check is scripts/check-concurrency.
 */
class ConcurrentProcessesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void eightProcessesAddDeleteAndListWithoutLosingAnything() throws Exception {
        Path state = dir.resolve("fake-state.json");
        Set<String> before = names(CliRun.of("--backend", "fake", "--fake-state", state.toString(), "dev", "list", "--json").out());
        List<CompletableFuture<String>> workers = new ArrayList<>();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 4; i++) {
                workers.add(worker(pool, "add-" + i, List.of(List.of("dev", "add", "c" + i, "--mgmtdev", "vdpasim_net"))));
            }
            workers.add(worker(pool, "pair", List.of(List.of("dev", "add", "t0", "--mgmtdev", "vdpasim_net"), List.of("dev", "del", "t0"))));
            for (int i = 0; i < 2; i++) {
                workers.add(worker(pool, "list-" + i, List.of(List.of("dev", "list", "--json"))));
            }
            List<String> failures = new ArrayList<>();
            for (CompletableFuture<String> w : workers) {
                String failure = w.get(10, TimeUnit.MINUTES);
                if (failure != null) {
                    failures.add(failure);
                }
            }
            assertEquals(List.of(), failures);
        }
        for (int i = 0; i < 2; i++) {
            names(Files.readString(dir.resolve("list-" + i + "-1.out")));
        }
        JSON.readTree(state.toFile());
        Set<String> expected = new TreeSet<>(before);
        for (int i = 0; i < 4; i++) {
            expected.add("c" + i);
        }
        assertEquals(expected, names(CliRun.of("--backend", "fake", "--fake-state", state.toString(), "dev", "list", "--json").out()));
    }

    /** Runs the invocations one after the other in separate JVMs; null when all exited 0, else what failed. */
    private CompletableFuture<String> worker(ExecutorService pool, String label, List<List<String>> invocations) {
        Path state = dir.resolve("fake-state.json");
        return CompletableFuture.supplyAsync(() -> {
            int step = 0;
            for (List<String> args : invocations) {
                step++;
                List<String> full = new ArrayList<>(List.of("--backend", "fake", "--fake-state", state.toString()));
                full.addAll(args);
                Path out = dir.resolve(label + "-" + step + ".out");
                Path err = dir.resolve(label + "-" + step + ".err");
                try {
                    Process p = SeparateJvm.start(Main.class, out, err, full.toArray(String[]::new));
                    if (!p.waitFor(10, TimeUnit.MINUTES)) {
                        p.destroyForcibly();
                        return label + ": " + args + " did not finish";
                    }
                    if (p.exitValue() != 0) {
                        return label + ": " + args + " exit " + p.exitValue() + ": " + Files.readString(err);
                    }
                } catch (Exception e) {
                    return label + ": " + args + ": " + e;
                }
            }
            return null;
        }, pool);
    }

    private static Set<String> names(String devListJson) throws Exception {
        Set<String> names = new TreeSet<>();
        JSON.readTree(devListJson).get("dev").fieldNames().forEachRemaining(names::add);
        return names;
    }
}
