package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.vdpactl.testsupport.LoadedClasses;
import picocli.CommandLine;

/**
 * A command line registers only the subcommand it names ({@link Commands#forArgs}, for start-up), and what a
 * user sees does not change for it: every command line here prints the same and exits the same through the
 * lazily built command line as through the whole tree.
 */
class CommandSelectionTest {
    @Test
    void theTableNamesEveryCommandAsItsAnnotationDoes() {
        List<String> annotated = Commands.all().stream().map(c -> annotation(c).name()).toList();
        assertEquals(annotated, Commands.names());
        for (Object c : Commands.all()) {
            assertEquals(0, annotation(c).aliases().length, c + ": a top-level alias must be in the Commands table too");
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

    /** A group's subcommands ({@link SubcommandTable}): the one named, past root options; all when it names none. */
    @Test
    void aGroupGetsOnlyTheSubcommandItsLineNames() {
        assertEquals(List.of("list"), subcommands("--backend", "kernel", "dev", "list"));
        assertEquals(List.of("list"), subcommands("dev", "ls"));
        assertEquals(List.of("show"), subcommands("dev", "--json", "--fake-state", "s.json", "-p", "show", "x"));
        assertEquals(List.of("del"), subcommands("dev", "--backend=fake", "del", "x"));
        assertEquals(List.of("show"), subcommands("mgmtdev", "show"));
        List<String> dev = List.of("list", "show", "add", "del", "config", "vstats", "set");
        assertEquals(dev, subcommands("dev"));
        assertEquals(dev, subcommands("dev", "--help"));
        assertEquals(dev, subcommands("dev", "lsit"));
        assertEquals(dev, subcommands("dev", "-j"));
        assertEquals(List.of("list", "show", "function"), subcommands("mgmtdev", "-h", "list"));
        CommandLine whole = Main.commandLine();
        assertEquals(dev, List.copyOf(whole.getSubcommands().get("dev").getSubcommands().keySet()).stream()
                .filter(n -> !n.equals("ls")).toList(), "the whole tree has every subcommand, in --help order");
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
            "dev ls --help", "dev -h list", "dev show --bogus", "dev add --help", "dev set", "mgmtdev", "mgmtdev --json list --help",
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
        List<String> listHelp = loadedClasses(dir, "dev-list-help", "dev", "list", "--help");
        assertEquals(true, listHelp.contains("org.vdpactl.cli.mgmt.DevCommand$ListCommand"), "the log names no dev list class");
        assertEquals(List.of(), listHelp.stream().filter(c -> c.startsWith("org.vdpactl.cli.mgmt.DevCommand$") && !c.contains("$$Lambda") && !c.endsWith("$ListCommand")
                || c.equals("org.vdpactl.cli.mgmt.DevDelCommand")).toList(), "dev list --help built dev's other subcommands");
    }

    private static List<String> loadedClasses(Path dir, String name, String... args) throws Exception {
        LoadedClasses loaded = LoadedClasses.of(dir, Main.class, name, args);
        assertEquals(0, loaded.exitCode(), loaded.stderr());
        return loaded.names();
    }

    private static List<String> selected(String... args) {
        return Commands.forArgs(args).stream().map(c -> annotation(c).name()).toList();
    }

    /** The names of the subcommands registered under the one command {@code args} selects (aliases left out). */
    private static List<String> subcommands(String... args) {
        List<Object> one = Commands.forArgs(args);
        assertEquals(1, one.size(), "selected " + one);
        return List.copyOf(((CommandLine) one.get(0)).getSubcommands().keySet()).stream().filter(n -> !n.equals("ls")).toList();
    }

    /** The {@code @Command} of a registered command (a group comes with its subcommands, as a command line). */
    private static CommandLine.Command annotation(Object registered) {
        Object command = registered instanceof CommandLine cl ? cl.getCommand() : registered;
        return command.getClass().getAnnotation(CommandLine.Command.class);
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
