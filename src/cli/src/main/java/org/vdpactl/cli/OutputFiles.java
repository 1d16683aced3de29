package org.vdpactl.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An output file that is one of the run's inputs is refused before the run: the fake's state file
 * (and its lock and open record), the fault rules, a memory layout, a document being merged. Written
 * over, the state file lost every device and every later command failed.
 */
public final class OutputFiles {
    private OutputFiles() {
    }

    /**
     * Refuses {@code output} (given as {@code option}) when it is, by name or by link, the fake's state
     * file, its lock or open record, the fault rules, or one of {@code inputs}.
     *
     * @throws CliFailure (USAGE) naming the input it would overwrite
     */
    public static void refuseInputs(CliContext ctx, String option, Path output, List<Path> inputs) {
        List<Path> all = new ArrayList<>(inputs);
        Path state = ctx.fakeStatePath();
        all.add(state);
        all.add(state.resolveSibling(state.getFileName() + ".lock"));
        all.add(state.resolveSibling(state.getFileName() + ".open"));
        ctx.fakeFaults().ifPresent(all::add);
        for (Path in : all) {
            if (in != null && same(output, in)) {
                throw new CliFailure(ExitCode.USAGE, option + " " + output + " is " + (in.equals(output) ? "" : "(through a link) ")
                        + "an input of this run (" + in + "); writing it would destroy it: give another file (nothing was done)");
            }
        }
    }

    private static boolean same(Path a, Path b) {
        if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) {
            return true;
        }
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }
}
