package org.vdpactl.packaging;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.vdpactl.cli.Main;
import picocli.CommandLine;

/**
 * The training run behind the start-up archive: runs a few typical command lines in one JVM, output
 * discarded, so the JDK records (AOT cache) or dumps (CDS) every class they load. Commands run against
 * the fake backend with a throw-away state file; a command that fails is still training.
 *
 * <p>Usage (by {@link ReleaseFiles}): {@code java <archive flags> -cp vdpactl-all.jar
 * org.vdpactl.packaging.AotTraining WORK_DIR}. Exits 0, or 1 when the jar itself is broken (a
 * {@link LinkageError}, e.g. a class that does not verify).
 */
public final class AotTraining {
    private AotTraining() {
    }

    /** The command lines to train on: help of every command, then the everyday read-only ones on the fake. */
    static List<String[]> commandLines(CommandLine root, Path fakeState) {
        List<String[]> runs = new ArrayList<>();
        runs.add(new String[] {"--version"});
        runs.add(new String[] {"--help"});
        for (Map.Entry<String, CommandLine> top : root.getSubcommands().entrySet()) {
            runs.add(new String[] {top.getKey(), "--help"});
            for (String sub : top.getValue().getSubcommands().keySet()) {
                runs.add(new String[] {top.getKey(), sub, "--help"});
            }
        }
        String state = fakeState.toString();
        for (String[] everyday : new String[][] {{"dev", "list"}, {"mgmtdev", "list"}, {"dev", "show"}}) {
            CommandLine top = root.getSubcommands().get(everyday[0]);
            if (top != null && top.getSubcommands().containsKey(everyday[1])) {
                runs.add(new String[] {"--backend", "fake", "--fake-state", state, everyday[0], everyday[1]});
                runs.add(new String[] {"--backend", "fake", "--fake-state", state, "--json", everyday[0], everyday[1]});
            }
        }
        return runs;
    }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(args.length > 0 ? args[0] : System.getProperty("java.io.tmpdir"));
        Files.createDirectories(work);
        // the same logging set-up as Main.main, so the same classes load
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        System.setProperty("org.slf4j.simpleLogger.showThreadName", "false");
        System.setProperty("org.slf4j.simpleLogger.levelInBrackets", "true");
        PrintStream realErr = System.err;
        System.setOut(new PrintStream(PrintStream.nullOutputStream()));
        System.setErr(new PrintStream(PrintStream.nullOutputStream()));
        int ran = 0;
        try {
            for (String[] line : commandLines(Main.commandLine(), work.resolve("fake-state.json"))) {
                CommandLine cl = Main.commandLine();
                cl.setOut(new PrintWriter(Writer.nullWriter()));
                cl.setErr(new PrintWriter(Writer.nullWriter()));
                try {
                    cl.execute(line);
                } catch (RuntimeException e) {
                    // a failing command still loads its classes; the build only cares about a broken jar
                }
                ran++;
            }
        } catch (LinkageError e) {
            realErr.println("AotTraining: the jar does not link: " + e);
            System.exit(1);
        }
        realErr.println("AotTraining: ran " + ran + " command lines");
        // every real run ends in System.exit, whose exit logging (System.Logger) loads classes of its own
        System.exit(0);
    }
}
