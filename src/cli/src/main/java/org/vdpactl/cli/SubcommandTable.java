package org.vdpactl.cli;

import java.util.List;

/**
 * A command group whose subcommands {@link Commands} registers, instead of its {@code @Command(subcommands)}: a
 * command line that names one of them gets only that one. picocli makes a command line per registered subcommand,
 * and each builds its command's model and registers its built-in type converters again (java.time and java.sql
 * types looked up by reflection): with all seven of {@code dev}'s subcommands registered, {@code dev list} built six
 * command lines it never used.
 */
public interface SubcommandTable {
    /** The subcommands' names, in the order --help lists them. */
    List<String> subcommandNames();

    /** A new instance of the subcommand {@code word} names (a name or an alias), or null when it names none. */
    Object newSubcommand(String word);
}
