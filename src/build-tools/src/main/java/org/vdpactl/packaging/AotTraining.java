package org.vdpactl.packaging;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * The training run behind the start-up archive: a few typical command lines, run in one JVM by the CLI's
 * own {@code --batch} mode (output to the training log), so that the JDK records (AOT cache) or dumps (CDS)
 * every class they load. Commands run against the fake backend with a throw-away state file; a command that
 * fails is still training. The driver stays here, in the build-time tools: the jar's class path is the whole
 * class path of the training JVM, as the launcher's will be (scripts/lib/aot-cache.sh), or the JVM would refuse the archive.
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
        // the everyday commands then read a state that exists, as on a machine where vdpactl ran before (and as the
        // bench's start-up part measures them): reading and checking the state file (its records, the device-name
        // rules and their Unicode normaliser) is trained too, which read-only commands on a missing state never reach
        CommandLine dev = root.getSubcommands().get("dev");
        if (dev != null && dev.getSubcommands().containsKey("add")) {
            runs.add(new String[] {"--backend", "fake", "--fake-state", state, "dev", "add", "aot-training", "--mgmtdev", "vdpasim_net"});
        }
        for (String[] everyday : new String[][] {{"dev", "list"}, {"mgmtdev", "list"}, {"dev", "show"}}) {
            CommandLine top = root.getSubcommands().get(everyday[0]);
            if (top != null && top.getSubcommands().containsKey(everyday[1])) {
                runs.add(new String[] {"--backend", "fake", "--fake-state", state, everyday[0], everyday[1]});
                runs.add(new String[] {"--backend", "fake", "--fake-state", state, "--json", everyday[0], everyday[1]});
            }
        }
        // the kernel backend's netlink path (socket, bind, sendto, recvfrom downcalls and the text listing): on a host
        // without vdpa it ends in exit 8 after asking netlink, which still trains what every such command loads
        for (String[] everyday : new String[][] {{"dev", "list"}, {"mgmtdev", "list"}}) {
            runs.add(new String[] {"--backend", "kernel", everyday[0], everyday[1]});
        }
        return runs;
    }

    /**
     * The command lines of the kernel cache ({@code vdpactl-kernel.aot}, which scripts/lib/aot-cache.sh gives a command
     * line on the kernel backend): all but those on the fake backend. A JVM loads every class its AOT cache holds when
     * it starts, so a cache trained on the fake's commands too made {@code --backend kernel dev list} load the fake
     * kernel's classes and Jackson's data binding before main.
     */
    static List<String[]> kernelLines(List<String[]> all) {
        return all.stream().filter(line -> !onTheFake(line)).toList();
    }

    /** Whether a training line names the fake backend (the training always names it as two words). */
    static boolean onTheFake(String[] line) {
        for (int i = 0; i + 1 < line.length; i++) {
            if (line[i].equals("--backend") && line[i + 1].equals("fake")) {
                return true;
            }
        }
        return false;
    }

    /** The batch file of {@code vdpactl --batch}: one command line a line, every word single-quoted. */
    static String batchFile(List<String[]> lines) {
        StringBuilder b = new StringBuilder("# vdpactl start-up archive training (org.vdpactl.packaging.AotTraining)\n");
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                b.append(i == 0 ? "" : " ").append('\'').append(line[i].replace("'", "'\"'\"'")).append('\'');
            }
            b.append('\n');
        }
        return b.toString();
    }
}
