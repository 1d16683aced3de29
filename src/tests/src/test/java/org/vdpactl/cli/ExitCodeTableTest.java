package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The README's exit-code table, row by row: every code is what a real command path ends with, and
 * the code deciding it comes from one place (ExitCodeMapper), never from an exception's message.
 */
class ExitCodeTableTest {
    @TempDir
    Path dir;

    private static final Pattern ROW = Pattern.compile("\\| (\\d+) \\| ([A-Z_]+) \\| .*");

    /** The rows of the README's table, as (code, name). */
    private static Map<ExitCode, Integer> readmeTable() throws IOException {
        Map<ExitCode, Integer> rows = new EnumMap<>(ExitCode.class);
        for (String l : Files.readAllLines(Path.of("README.md"))) {
            Matcher m = ROW.matcher(l);
            if (m.matches()) {
                rows.put(ExitCode.valueOf(m.group(2)), Integer.parseInt(m.group(1)));
            }
        }
        return rows;
    }

    private CliRun fake(String... args) {
        return RehearseReliabilityTest.onVirtualFake(dir.resolve("state.json"), args);
    }

    private String rules(String json) throws IOException {
        return Files.writeString(dir.resolve("faults-" + Integer.toHexString(json.hashCode()) + ".json"), json).toString();
    }

    /** One real command path per row of the table, ending with that row's code. */
    private CliRun pathEndingWith(ExitCode code) throws Exception {
        return switch (code) {
            case OK -> fake("dev", "list");
            case FAILURE -> buggyCommand();
            case USAGE -> fake("rehearse", "--memory", "3X");
            case NOT_FOUND -> fake("vhost", "info", "nosuch");
            case PERMISSION -> fake("--fake-faults", rules("[{\"device\":\"mlx5-0\",\"call\":\"open\",\"errno\":\"EACCES\"}]"),
                    "vhost", "info", "mlx5-0");
            case NOT_SUPPORTED -> fake("--fake-kernel", "6.1", "dev", "set", "vdpa0", "--mac", "02:00:00:00:00:09");
            case PARTIAL -> fake("--fake-faults", rules("[{\"device\":\"mlx5-1\",\"call\":\"VHOST_VDPA_SUSPEND\",\"errno\":\"EIO\"}]"),
                    "rehearse", "--queue-pairs", "1");
            case KERNEL_ERROR -> fake("vhost", "info", "--fd", "999");
            case NOT_READY -> fake("doctor", "--memory", "100T");
            case RESOURCE_LIMIT -> fake("--fake-faults", rules("[{\"device\":\"mlx5-0\",\"call\":\"open\",\"errno\":\"EMFILE\"}]"),
                    "vhost", "info", "mlx5-0");
            case BLOCKED -> fake("migrate", "check", "vdpa0", "--source-qemu", "7.2.0", "--dest-qemu", "7.2.0");
            case INTERRUPTED -> {
                RehearseSignalTest.Interrupted r = RehearseSignalTest.interruptedRehearsal(dir, "TERM");
                yield new CliRun(r.exit(), r.out(), r.err());
            }
        };
    }

    /**
     * FAILURE is a bug by definition, so no command reaches it on purpose: a command with one (it
     * dereferences null) goes through the same execution and error reporting as every command.
     */
    private static CliRun buggyCommand() {
        @CommandLine.Command(name = "buggy")
        final class Buggy implements Callable<Integer> {
            @Override
            public Integer call() {
                String missing = System.getProperty("vdpactl.no-such-property");
                return missing.length();
            }
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.addSubcommand(new Buggy());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute("--backend", "fake", "--fake-state", System.getProperty("java.io.tmpdir") + "/vdpactl-buggy-"
                + ProcessHandle.current().pid() + ".json", "buggy");
        return new CliRun(exit, out.toString(), err.toString());
    }

    @Test
    void everyRowOfTheReadmeTableIsTheEndOfARealCommandPath() throws Exception {
        Map<ExitCode, Integer> table = readmeTable();
        assertEquals(List.of(ExitCode.values()), List.copyOf(table.keySet()), "README rows");
        for (ExitCode code : ExitCode.values()) {
            assertEquals(code.code(), table.get(code), code + " in the README");
            CliRun r = pathEndingWith(code);
            assertEquals(table.get(code), r.exitCode(), code + ": " + r.err() + r.out());
            assertTrue(r.noStackTrace(), code + ": " + r.err());
            // doctor's NOT_READY and a PARTIAL rehearsal are declared results, explained by the data they print
            if (code != ExitCode.OK && code != ExitCode.PARTIAL && code != ExitCode.NOT_READY) {
                assertTrue(r.err().lines().anyMatch(l -> l.startsWith("vdpactl: ")), code + ": no error line: " + r.err());
            }
        }
    }

    /** Sources of the product, for the checks below. */
    private static List<Path> mainSources() throws IOException {
        // every module's main sources: src/MODULE/src/main/java
        try (Stream<Path> s = Files.walk(Path.of("src"))) {
            return s.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/org/vdpactl/")).sorted().toList();
        }
    }

    /**
     * ExitCodeMapper is the only place that maps an exception to a code. Elsewhere an exit code is
     * named only (a) as a condition a command detects itself, {@code new CliFailure(ExitCode.X, "...")}
     * without a caught exception's message, (b) as a command's declared result,
     * {@code ExitCode.X.code()}, or (c) compared ({@code == ExitCode.X}); and no code decides anything
     * from an exception's message.
     */
    @Test
    void exitCodesAreDecidedInOnePlaceAndNeverFromMessages() throws IOException {
        Pattern detected = Pattern.compile("new CliFailure\\(ExitCode\\.[A-Z_]+,");
        Pattern declared = Pattern.compile("ExitCode\\.[A-Z_]+\\s*(:|\\))?.*\\.code\\(\\)|ExitCode\\.[A-Z_]+ : ExitCode\\.[A-Z_]+\\)\\.code\\(\\)");
        Pattern compared = Pattern.compile("== ExitCode\\.[A-Z_]+");
        List<String> offending = new ArrayList<>();
        for (Path p : mainSources()) {
            String name = p.getFileName().toString();
            List<String> lines = Files.readAllLines(p);
            // statements span lines: the message checks look at the whole source, not line by line
            messageDecisions(Files.readString(p)).forEach(m -> offending.add(p + ":" + m));
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i);
                String where = p + ":" + (i + 1) + ": " + l.strip();
                if (name.equals("ExitCode.java") || name.equals("ExitCodeMapper.java") || !l.contains("ExitCode.")) {
                    continue;
                }
                String rest = l.replaceAll(detected.pattern(), "").replaceAll(compared.pattern(), "");
                boolean ok = !rest.contains("ExitCode.") || declared.matcher(l).find();
                if (!ok) {
                    offending.add(where);
                }
            }
        }
        assertEquals(List.of(), offending);
    }

    /** A test of a message's text: {@code getMessage()} then {@code .contains(}, with any white space (lines) between. */
    private static final Pattern MESSAGE_TEST = Pattern.compile(
            "getMessage\\(\\)\\s*\\.\\s*(contains|startsWith|endsWith|matches|equals|equalsIgnoreCase|indexOf)\\s*\\(");
    /** A variable that holds a message: {@code String m = e.getMessage();}. */
    private static final Pattern MESSAGE_VARIABLE = Pattern.compile("\\b(\\w+)\\s*=\\s*[\\w.()]*getMessage\\(\\)\\s*;");
    /** A code chosen here for a caught exception's message: {@code new CliFailure(ExitCode.X, ... getMessage() ...);}. */
    private static final Pattern CODE_FOR_MESSAGE = Pattern.compile(
            "new CliFailure\\(\\s*ExitCode\\.[A-Z_]+\\s*,[^;]*?getMessage\\(\\)");

    /**
     * Where {@code source} decides something from an exception's message ("LINE: what"), over whole statements: a
     * test of {@code getMessage()}'s text, of a variable holding it, or a CliFailure whose code is chosen here for a
     * caught exception's message; a statement may wrap over lines.
     */
    static List<String> messageDecisions(String source) {
        // comments say what the code does not do; strings cannot hold these tokens in this code base
        String code = Pattern.compile("(?s)/\\*.*?\\*/").matcher(source)
                .replaceAll(m -> Matcher.quoteReplacement(m.group().replaceAll("[^\\n]", " ")))
                .replaceAll("//[^\\n]*", "");
        List<String> out = new ArrayList<>();
        Matcher m = MESSAGE_TEST.matcher(code);
        while (m.find()) {
            out.add(lineOf(code, m.start()) + ": decides from a message");
        }
        Matcher v = MESSAGE_VARIABLE.matcher(code);
        while (v.find()) {
            Matcher use = Pattern.compile("\\b" + Pattern.quote(v.group(1))
                    + "\\s*\\.\\s*(contains|startsWith|endsWith|matches|equals|equalsIgnoreCase|indexOf)\\s*\\(").matcher(code);
            if (use.find(v.end())) {
                out.add(lineOf(code, use.start()) + ": decides from a message (held in " + v.group(1) + ")");
            }
        }
        Matcher c = CODE_FOR_MESSAGE.matcher(code);
        while (c.find()) {
            out.add(lineOf(code, c.start()) + ": a caught exception reported with a code chosen here: use CliFailure.from");
        }
        return out;
    }

    private static int lineOf(String text, int offset) {
        return (int) text.substring(0, offset).chars().filter(ch -> ch == '\n').count() + 1;
    }

    @Test
    void theMessageCheckSeesStatementsThatWrap() {
        assertEquals(List.of("1: decides from a message"), messageDecisions("if (e.getMessage().contains(\"busy\")) {"));
        assertEquals(List.of("2: decides from a message"), messageDecisions("int x;\nif (e.getMessage()\n        .contains(\"busy\")) {"));
        assertEquals(List.of("3: decides from a message (held in why)"),
                messageDecisions("String why = e.getMessage();\nlog(why);\nreturn why.startsWith(\"EBUSY\") ? 7 : 1;"));
        assertEquals(List.of("1: a caught exception reported with a code chosen here: use CliFailure.from"),
                messageDecisions("throw new CliFailure(ExitCode.USAGE,\n        \"bad: \" + e.getMessage());"));
        assertEquals(List.of(), messageDecisions("// never e.getMessage().contains(...)\nthrow CliFailure.from(e, e.getMessage());"));
        assertEquals(List.of(), messageDecisions("throw new CliFailure(ExitCode.USAGE, \"give DEV\");\nString m = e.getMessage();"));
    }

    /** Product text (every command's --help) does not refer to the project's issue tracker. */
    @Test
    void helpTextNamesNoIssueOfTheTracker() {
        List<String> found = new ArrayList<>();
        Deque.walk(Main.commandLine(), cl -> {
            String usage = cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
            if (usage.matches("(?s).*\\b[Ii]ssues? #?\\d+.*")) {
                found.add(cl.getCommandSpec().qualifiedName());
            }
        });
        assertEquals(List.of(), found);
    }

    private static final class Deque {
        static void walk(CommandLine cl, Consumer<CommandLine> visit) {
            visit.accept(cl);
            cl.getSubcommands().values().stream().distinct().forEach(sub -> walk(sub, visit));
        }
    }
}
