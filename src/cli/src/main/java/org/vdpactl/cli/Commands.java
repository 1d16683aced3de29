package org.vdpactl.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import org.vdpactl.cli.doctor.DoctorCommand;
import org.vdpactl.cli.mgmt.DevCommand;
import org.vdpactl.cli.mgmt.MgmtdevCommand;
import org.vdpactl.cli.migrate.MigrateCommand;
import org.vdpactl.cli.vhost.VhostCommand;

/**
 * The top-level subcommands, in the order --help lists them, and which of them a command line needs.
 *
 * <p>picocli builds the model of every registered command (every option's type and converter; the values of
 * the annotations are written down at build time, {@link CommandModel}) before it parses a word: with all of them
 * registered, {@code vdpactl --version} paid for the whole tree (the start-up breakdown in docs/benchmarks.md). A command line that names its subcommand gets only
 * that one; {@code --version} and {@code --batch} (whose lines are command lines of their own) get none;
 * anything this class cannot read for sure (help, an unknown word or option, completion, which walks the
 * tree) gets all of them, so picocli's own messages stay as they were.
 */
final class Commands {
    /** The names, in --help order; each is its command's {@code @Command(name)} (CommandSelectionTest). */
    private static final List<String> NAMES = List.of("rehearse", "mgmtdev", "dev", "vhost", "doctor", "migrate", "bench", "report",
            "generate-completion", "__complete");
    /** Options of the root command that take a value (the next word unless given as {@code --name=value}). */
    private static final Set<String> WITH_VALUE = Set.of("--backend", "--fake-state", "--fake-faults", "--fake-kernel", "--fake-clock",
            "-b", "--batch");
    /** Options of the root command without a value. */
    private static final Set<String> FLAGS = Set.of("-j", "--json", "-p", "--pretty", "-v", "--verbose", "--force");
    /** Subcommands that read the whole tree. */
    private static final Set<String> WHOLE_TREE = Set.of("help", "generate-completion");

    private Commands() {
    }

    static List<Object> all() {
        List<Object> list = new ArrayList<>();
        NAMES.forEach(n -> list.add(withSubcommands(create(n), null)));
        return list;
    }

    /**
     * {@code command} as picocli registers it: a {@link SubcommandTable} group as a command line with the subcommand
     * {@code word} names only, or with all of them when {@code word} is null or names none (the group's usage and
     * picocli's messages about an unknown word list them all); any other command as it is.
     */
    private static Object withSubcommands(Object command, String word) {
        if (!(command instanceof SubcommandTable table)) {
            return command;
        }
        CommandLine group = CommandModel.commandLine(command);
        Object one = word == null ? null : table.newSubcommand(word);
        if (one != null) {
            group.addSubcommand(CommandModel.commandLine(one));
        } else {
            for (String name : table.subcommandNames()) {
                group.addSubcommand(CommandModel.commandLine(table.newSubcommand(name)));
            }
        }
        return group;
    }

    /** The first word after {@code from} that is no root option (nor an option's value), or null. */
    private static String nextWord(String[] args, int from) {
        for (int i = from; i < args.length; i++) {
            String a = args[i];
            if (WITH_VALUE.contains(a)) {
                i++;
            } else if (!FLAGS.contains(a) && !(a.startsWith("--") && a.indexOf('=') > 0
                    && WITH_VALUE.contains(a.substring(0, a.indexOf('='))))) {
                return a;
            }
        }
        return null;
    }

    /** Whether {@code subcommands} (from {@link #forArgs} or {@link #all}) is every top-level subcommand. */
    static boolean isWholeTree(List<Object> subcommands) {
        return subcommands.size() == NAMES.size();
    }

    /** The names of every top-level subcommand, in --help order. */
    static List<String> names() {
        return NAMES;
    }

    /**
     * A new instance of the command {@code name}. A switch of {@code new}s, not a table of constructor
     * references: resolving a method reference loads its class, and a command not run should not load.
     */
    private static Object create(String name) {
        return switch (name) {
            case "rehearse" -> new RehearseCommand();
            case "mgmtdev" -> new MgmtdevCommand();
            case "dev" -> new DevCommand();
            case "vhost" -> new VhostCommand();
            case "doctor" -> new DoctorCommand();
            case "migrate" -> new MigrateCommand();
            case "bench" -> new BenchCommand();
            case "report" -> new ReportCommand();
            case "generate-completion" -> new CompletionScript.Generate();
            case "__complete" -> new CompletionScript.Names();
            default -> throw new IllegalArgumentException("no vdpactl command " + name);
        };
    }

    /** The subcommands the command line {@code args} needs (see the class comment). */
    static List<Object> forArgs(String... args) {
        boolean help = false;
        boolean noTree = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (WITH_VALUE.contains(a)) {
                if (i + 1 < args.length && (NAMES.contains(args[i + 1]) || args[i + 1].equals("help"))) {
                    // picocli refuses a subcommand's name as an option's value, if it knows that subcommand
                    return all();
                }
                noTree |= a.equals("-b") || a.equals("--batch");
                i++;
            } else if (a.startsWith("--") && a.indexOf('=') > 0 && WITH_VALUE.contains(a.substring(0, a.indexOf('=')))) {
                noTree |= a.startsWith("--batch=");
            } else if (a.equals("-V") || a.equals("--version")) {
                noTree = true;
            } else if (a.equals("-h") || a.equals("--help")) {
                help = true;
            } else if (!FLAGS.contains(a)) {
                // the first word that is no root option: the subcommand, if it is one of ours
                // (after --help the root's usage lists every subcommand)
                boolean one = !help && NAMES.contains(a) && !WHOLE_TREE.contains(a);
                return one ? List.of(withSubcommands(create(a), nextWord(args, i + 1))) : all();
            }
        }
        return noTree && !help ? List.of() : all();
    }
}
