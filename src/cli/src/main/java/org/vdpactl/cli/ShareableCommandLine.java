package org.vdpactl.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * The command line as a report shows it. Reports get shared, so without {@code --report-details} the
 * value of a file argument (the state file, the report's own path, a memory layout file) is shown as
 * {@value #FILE}: a local path names the user's home directory, and even a file name can name the user.
 */
final class ShareableCommandLine {
    /** What a file argument is shown as. */
    static final String FILE = "FILE";

    private ShareableCommandLine() {
    }

    /** "vdpactl ARGS", the values of file options replaced by {@value #FILE} unless {@code details}. */
    static String of(CommandSpec spec, boolean details) {
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        if (details) {
            return "vdpactl " + String.join(" ", args);
        }
        Set<String> paths = new HashSet<>();
        for (ParseResult pr = spec.root().commandLine().getParseResult(); pr != null;
                pr = pr.subcommand()) {
            for (ArgSpec a : pr.matchedArgs()) {
                if (isPath(a)) {
                    paths.addAll(a.originalStringValues());
                }
            }
        }
        List<String> out = new ArrayList<>(args.size());
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (paths.contains(arg)) {
                out.add(FILE);
            } else if (arg.startsWith("-") && eq > 0 && paths.contains(arg.substring(eq + 1))) {
                out.add(arg.substring(0, eq + 1) + FILE);
            } else {
                out.add(arg);
            }
        }
        return "vdpactl " + String.join(" ", out);
    }

    private static boolean isPath(ArgSpec a) {
        if (Path.class.isAssignableFrom(a.type())) {
            return true;
        }
        for (Class<?> c : a.auxiliaryTypes()) {
            if (Path.class.isAssignableFrom(c)) {
                return true;
            }
        }
        return false;
    }
}
