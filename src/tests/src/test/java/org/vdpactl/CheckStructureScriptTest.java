package org.vdpactl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * scripts/check-structure (issue 15's layering and one-home rules): this tree passes, and each rule
 * fails on a small tree that breaks it, so that a rule whose grep matches nothing cannot pass quietly.
 * (The sample lines never spell the CLI's package name out, or the script would find them here.)
 */
class CheckStructureScriptTest {
    private static final Path SCRIPT = Path.of("scripts", "check-structure").toAbsolutePath();

    record Run(int code, String err) {
    }

    private static Run run(String... args) throws IOException, InterruptedException {
        String[] cmd = new String[args.length + 1];
        cmd[0] = SCRIPT.toString();
        System.arraycopy(args, 0, cmd, 1, args.length);
        Path err = Files.createTempFile("check-structure", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("scripts/check-structure did not finish");
            }
            return new Run(p.exitValue(), Files.readString(err));
        } finally {
            Files.deleteIfExists(err);
        }
    }

    @Test
    void thisTreeKeepsTheRules() throws Exception {
        Run r = run();
        assertEquals(0, r.code(), r.err());
        assertEquals("scripts/check-structure: ok\n", r.err());
    }

    /**
     * One small tree per rule: "rule | file | line", a file under main/ or test/ (a module's
     * src/m/src/main/java/org/vdpactl, the test module's src/tests/src/test/java/org/vdpactl); rows of one rule
     * make one tree. "{cli}" stands for the CLI's package name.
     */
    private static final String VIOLATIONS = """
            a test outside cli uses the CLI | test/report/ReportTest.java | var r = org.vdpactl.{cli}.CliRun.of();
            one class name, two homes | main/vhost/NetConfig.java | record NetConfig() {}
            one class name, two homes | main/mgmt/NetConfig.java | record NetConfig() {}
            a removed duplicate is back | main/mgmt/DeviceNodes.java | class DeviceNodes {}
            mgmt.VirtioNames carries constants | main/mgmt/VirtioNames.java | public static final int ID_NET = 1;
            an upstream scenario constant outside sim.UpstreamScenarios | main/sim/UpstreamScenarios.java | public static final long GUEST_BYTES = 1L << 38;
            an upstream scenario constant outside sim.UpstreamScenarios | main/cli/rehearse/Presets.java | private static final long GUEST_BYTES = 1L << 38;
            a hand-written enter/exit guard | main/vhost/Device.java | enter();
            """;

    static Stream<Arguments> violations() {
        Map<String, Map<String, String>> trees = new LinkedHashMap<>();
        for (String row : VIOLATIONS.strip().split("\n")) {
            String[] f = row.split(" \\| ", 3);
            trees.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).put(f[1], "    " + f[2].replace("{cli}", "cli") + "\n");
        }
        return trees.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("violations")
    void eachRuleFailsOnATreeThatBreaksIt(String rule, Map<String, String> files, @TempDir Path tree) throws Exception {
        write(tree, files);
        Run r = run("--root", tree.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("scripts/check-structure: " + rule), r.err());
        assertTrue(r.err().endsWith("scripts/check-structure: 1 violation(s) of the structure rules (issue 15)\n"), r.err());
    }

    @Test
    void commentsAndTheGeneratedBindingsDoNotCount(@TempDir Path tree) throws Exception {
        write(tree, Map.of(
                "main/fake/netlink/Family.java", "// unlike org.vdpactl.mgmt.VdpaCommand, numbered from the headers\n",
                "main/ffi/gen/vhost/vhost_h.java", "        enter();\n",
                "test/cli/CliRunTest.java", "import org.vdpactl." + "cli.CliRun;\n"));
        Run r = run("--root", tree.toString());
        assertEquals(0, r.code(), r.err());
    }

    /** Writes files named "main/..." or "test/..." below a module's main sources or the test module's sources. */
    private static void write(Path tree, Map<String, String> files) throws IOException {
        Files.createDirectories(tree.resolve("src/m/src/main/java/org/vdpactl"));
        for (Map.Entry<String, String> f : files.entrySet()) {
            String[] half = f.getKey().split("/", 2);
            String dir = half[0].equals("main") ? "src/m/src/main/java/org/vdpactl/" : "src/tests/src/test/java/org/vdpactl/";
            Path p = tree.resolve(dir + half[1]);
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue());
        }
    }
}
