package org.vdpactl.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options given before {@code --batch} (backend, fake state, faults, kernel, clock, --json,
 * --pretty, --verbose), as the words that put them in front of every batch line. Without them each
 * line ran with the defaults: the default state file, no fault rules, text output.
 */
final class BatchOptions {
    private final List<OptionSpec> options;
    private final List<List<String>> words;

    private BatchOptions(List<OptionSpec> options, List<List<String>> words) {
        this.options = options;
        this.words = words;
    }

    /** The root command's matched options but --batch and --force, each as its longest name and the values given. */
    static BatchOptions given(CommandLine.ParseResult root) {
        List<OptionSpec> options = new ArrayList<>();
        List<List<String>> words = new ArrayList<>();
        for (OptionSpec o : root.matchedOptions()) {
            if (o.names()[0].equals("-b") || o.longestName().equals("--batch") || o.longestName().equals("--force")
                    || o.usageHelp() || o.versionHelp()) {
                continue;
            }
            List<String> w = new ArrayList<>();
            if (o.arity().max() == 0) {
                w.add(o.longestName());
            } else {
                for (String v : o.originalStringValues()) {
                    w.add(o.longestName() + "=" + v);
                }
            }
            options.add(o);
            words.add(w);
        }
        return new BatchOptions(options, words);
    }

    /** {@code line} with the batch's options in front, but those the line gives itself. */
    List<String> before(List<String> line) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < options.size(); i++) {
            if (!givenIn(options.get(i), line)) {
                out.addAll(words.get(i));
            }
        }
        out.addAll(line);
        return out;
    }

    private static boolean givenIn(OptionSpec o, List<String> line) {
        for (String word : line) {
            for (String name : o.names()) {
                if (word.equals(name) || word.startsWith(name + "=")) {
                    return true;
                }
            }
        }
        return false;
    }
}
