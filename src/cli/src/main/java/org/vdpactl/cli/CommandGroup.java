package org.vdpactl.cli;

/**
 * A command that only groups subcommands ({@code mgmtdev}, {@code vhost}, {@code migrate}, {@code bench},
 * {@code report}, and {@code vdpactl} itself). The one rule for all of them: run without a subcommand, it prints
 * its usage on stderr and is a usage error (exit 2), with or without {@code --json}: scripts must not mistake the
 * usage for data, nor a forgotten subcommand for success. Asked for ({@code --help}, {@code help}), the usage is
 * data: stdout, exit 0. ({@code dev} alone is iproute2's {@code vdpa dev}: it shows the devices.)
 * The bare {@code @Command} lets picocli (and its annotation processor) see the {@code @Spec} here: each group's
 * own {@code @Command} gives the name, description and subcommands.
 */
@picocli.CommandLine.Command
public abstract class CommandGroup implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        refuseMissingSubcommand(spec);
    }

    /** The rule of the class comment, for {@code spec}'s command (the root command uses it too). */
    static void refuseMissingSubcommand(picocli.CommandLine.Model.CommandSpec spec) {
        spec.commandLine().usage(spec.commandLine().getErr());
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "missing subcommand: give one of "
                + String.join(", ", spec.subcommands().keySet().stream().filter(n -> !n.equals("ls") && !n.startsWith("__")).toList()));
    }
}
