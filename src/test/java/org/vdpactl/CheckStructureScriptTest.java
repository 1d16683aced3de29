package org.vdpactl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * (The sample lines that name the CLI's package are split, or the script would find them here.)
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

    static Stream<Arguments> violations() {
        return Stream.of(
                Arguments.of("the fake uses the client",
                        Map.of("src/main/java/org/vdpactl/fake/netlink/Family.java", "import org.vdpactl.mgmt.VdpaCommand;\n")),
                Arguments.of("orchestra/cli use generated bindings",
                        Map.of("src/main/java/org/vdpactl/orchestra/Ring.java", "import org.vdpactl.ffi.gen.vhost.vring_desc;\n")),
                Arguments.of("a test outside cli uses the CLI",
                        Map.of("src/test/java/org/vdpactl/report/ReportTest.java", "        var r = org.vdpactl." + "cli.CliRun.of();\n")),
                Arguments.of("one class name, two homes", Map.of(
                        "src/main/java/org/vdpactl/vhost/NetConfig.java", "record NetConfig() {}\n",
                        "src/main/java/org/vdpactl/mgmt/NetConfig.java", "record NetConfig() {}\n")),
                Arguments.of("a removed duplicate is back",
                        Map.of("src/main/java/org/vdpactl/mgmt/DeviceNodes.java", "class DeviceNodes {}\n")),
                Arguments.of("mgmt.VirtioNames carries constants",
                        Map.of("src/main/java/org/vdpactl/mgmt/VirtioNames.java", "    public static final int ID_NET = 1;\n")),
                Arguments.of("an upstream scenario constant outside sim.UpstreamScenarios", Map.of(
                        "src/main/java/org/vdpactl/sim/UpstreamScenarios.java", "    public static final long GUEST_BYTES = 1L << 38;\n",
                        "src/main/java/org/vdpactl/cli/rehearse/Presets.java", "    private static final long GUEST_BYTES = 1L << 38;\n")),
                Arguments.of("sys.IoctlNames has a global slot",
                        Map.of("src/main/java/org/vdpactl/sys/IoctlNames.java", "    private static volatile LongFunction<String> table;\n")),
                Arguments.of("a hand-written enter/exit guard",
                        Map.of("src/main/java/org/vdpactl/vhost/Device.java", "        enter();\n        try {\n")));
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
                "src/main/java/org/vdpactl/fake/netlink/Family.java", "// unlike org.vdpactl.mgmt.VdpaCommand, numbered from the headers\n",
                "src/main/java/org/vdpactl/orchestra/Plan.java", " * {@link org.vdpactl.ffi.gen.vhost.vhost_h} is not used here\n",
                "src/main/java/org/vdpactl/ffi/gen/vhost/vhost_h.java", "        enter();\n",
                "src/test/java/org/vdpactl/cli/CliRunTest.java", "import org.vdpactl." + "cli.CliRun;\n"));
        Run r = run("--root", tree.toString());
        assertEquals(0, r.code(), r.err());
    }

    private static void write(Path tree, Map<String, String> files) throws IOException {
        Files.createDirectories(tree.resolve("src/main/java/org/vdpactl"));
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path p = tree.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue());
        }
    }
}
