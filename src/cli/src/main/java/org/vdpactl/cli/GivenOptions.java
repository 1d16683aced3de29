package org.vdpactl.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/** Which options the command line gave, before the command or after it (inherited options are matched on either). */
final class GivenOptions {
    private GivenOptions() {
    }

    /** The options of {@code names} that were given, by their longest name, in command-line order. */
    static List<String> given(CommandSpec spec, List<String> names) {
        List<String> out = new ArrayList<>();
        for (ParseResult pr = spec.root().commandLine().getParseResult(); pr != null; pr = pr.subcommand()) {
            for (OptionSpec o : pr.matchedOptions()) {
                if (names.contains(o.longestName()) && !out.contains(o.longestName())) {
                    out.add(o.longestName());
                }
            }
        }
        return out;
    }
}
