package org.vdpactl.cli;

/**
 * A command that only groups subcommands ({@code dev}, {@code mgmtdev}, {@code vhost}). Run without one,
 * it prints its usage on stderr and is a usage error (exit 2): scripts must not mistake the usage for data.
 * The bare {@code @Command} lets picocli (and its annotation processor) see the {@code @Spec} here: each group's
 * own {@code @Command} gives the name, description and subcommands.
 */
@picocli.CommandLine.Command
public abstract class CommandGroup implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public final void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "missing subcommand: give one of "
                + String.join(", ", spec.subcommands().keySet().stream().filter(n -> !n.equals("ls")).toList()));
    }
}
