package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.vdpactl.testsupport.SeparateJvm;
import picocli.CommandLine;

/**
 * A command line registers only the subcommand it names ({@link Commands#forArgs}, for start-up), and what a
 * user sees does not change for it: every command line here prints the same and exits the same through the
 * lazily built command line as through the whole tree.
 */
class CommandSelectionTest {
    @Test
    void theTableNamesEveryCommandAsItsAnnotationDoes() {
        List<String> annotated = Commands.all().stream()
                .map(c -> c.getClass().getAnnotation(CommandLine.Command.class).name()).toList();
        assertEquals(annotated, Commands.names());
        for (Object c : Commands.all()) {
            assertEquals(0, c.getClass().getAnnotation(CommandLine.Command.class).aliases().length,
                    c.getClass() + ": a top-level alias must be in the Commands table too");
        }
    }

    @Test
    void aCommandLineGetsOnlyTheSubcommandItNames() {
        assertEquals(List.of(), selected("--version"));
        assertEquals(List.of(), selected("-V"));
        assertEquals(List.of(), selected("--batch", "lines.txt"));
        assertEquals(List.of(), selected("--batch=lines.txt", "--force"));
        assertEquals(List.of("dev"), selected("--backend", "kernel", "dev", "list"));
        assertEquals(List.of("dev"), selected("--backend=fake", "-j", "-p", "dev", "show", "x"));
        // a root option's value is not the subcommand
        assertEquals(List.of("mgmtdev"), selected("--fake-state", "state.json", "mgmtdev", "list"));
        assertEquals(List.of("vhost"), selected("--fake-kernel", "6.1", "--fake-clock", "virtual", "--fake-faults", "f", "vhost", "info"));
        assertEquals(List.of("__complete"), selected("__complete", "devices"));
    }

    @Test
    void whatItCannotReadForSureGetsTheWholeTree() {
        List<String> all = Commands.names();
        assertEquals(all, selected());
        assertEquals(all, selected("--help"));
        assertEquals(all, selected("--help", "dev"));
        assertEquals(all, selected("--version", "--help"));
        assertEquals(all, selected("help", "dev"));
        assertEquals(all, selected("generate-completion"));
        assertEquals(all, selected("devv", "list"));
        assertEquals(all, selected("-x", "dev", "list"));
        assertEquals(all, selected("-jb", "f", "dev"));
        // picocli refuses a subcommand's name as an option's value only when it knows that subcommand
        assertEquals(all, selected("--fake-state", "dev", "mgmtdev", "list"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"--version", "--help", "", "help dev", "dev", "dev --help", "dev list --help", "mgmtdev show --help",
            "rehearse --help", "vhost info --help", "doctor --help", "bench --help", "report --help", "generate-completion",
            "devv list", "dev lsit", "dev list --bogus", "--backend", "--backend kernel", "--backend nowhere dev list",
            "--fake-state dev mgmtdev --help", "--force", "--help dev", "-V dev list"})
    void printsAndExitsAsTheWholeTreeDoes(String line) {
        String[] args = line.isEmpty() ? new String[0] : line.split(" ");
        assertEquals(run(Main.commandLine(), args), run(Main.commandLineFor(args), args), line);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--version", "-V"})
    void versionAloneIsAnsweredWithoutPicocliAsPicocliAnswersIt(String option) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertEquals(true, VersionOnly.answer(new String[] {option}, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        assertEquals(run(Main.commandLine(), option), List.of("0", bytes.toString(StandardCharsets.UTF_8), ""));
        assertEquals(false, VersionOnly.answer(new String[] {option, "--help"}, new PrintStream(bytes)));
        assertEquals(false, VersionOnly.answer(new String[] {"--json", option}, new PrintStream(bytes)));
    }

    /** What a separate vdpactl JVM loads (-Xlog:class+load): the lazy registration is what keeps these classes out. */
    @Test
    void aCommandLoadsNoOtherCommandsClassesAndVersionBuildsNoCommandModel(@TempDir Path dir)
            throws Exception {
        List<String> version = loadedClasses(dir, "version", "--version");
        // (Main's own verification still loads a few picocli types: its annotations, exceptions and interfaces)
        assertEquals(List.of(), version.stream().filter(c -> c.startsWith("picocli.CommandLine$Model")).toList(),
                "--version built picocli's command model");
        List<String> devHelp = loadedClasses(dir, "dev-help", "dev", "--help");
        assertEquals(true, devHelp.contains("org.vdpactl.cli.mgmt.DevCommand"), "the log names no vdpactl class: " + devHelp.size());
        assertEquals(List.of(), devHelp.stream().filter(c -> c.startsWith("org.vdpactl.cli.rehearse.") || c.startsWith("org.vdpactl.cli.doctor.")
                || c.startsWith("org.vdpactl.cli.vhost.") || c.equals("org.vdpactl.cli.RehearseCommand") || c.equals("org.vdpactl.cli.BenchCommand")
                || c.equals("org.vdpactl.cli.ReportCommand")).toList(), "dev --help loaded other commands' classes");
    }

    private static List<String> loadedClasses(Path dir, String name, String... args) throws Exception {
        Path log = dir.resolve(name + ".classes");
        Process p = SeparateJvm.start(Main.class,
                Map.of("JAVA_TOOL_OPTIONS", "-Xlog:class+load:file=" + log), dir.resolve(name + ".out"), dir.resolve(name + ".err"), args);
        assertEquals(true, p.waitFor(120, TimeUnit.SECONDS), name + " did not end");
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve(name + ".err")));
        try (var lines = Files.lines(log)) {
            // "[0.123s][info][class,load] NAME source: ..."
            return lines.filter(l -> l.contains("[class,load]")).map(l -> l.substring(l.indexOf("] ", l.indexOf("[class,load]")) + 2).split(" ")[0])
                    .toList();
        }
    }

    private static List<String> selected(String... args) {
        return Commands.forArgs(args).stream().map(c -> c.getClass().getAnnotation(CommandLine.Command.class).name()).toList();
    }

    /** Exit code, stdout and stderr of one run. */
    private static List<String> run(CommandLine cl, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return List.of(String.valueOf(code), out.toString(), err.toString());
    }
}
