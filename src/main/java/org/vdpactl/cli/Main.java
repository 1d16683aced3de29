package org.vdpactl.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the vdpactl command. */
@Command(name = "vdpactl",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Drive Linux vhost-vdpa devices and the vdpa netlink family; rehearse live-migration downtime.",
        subcommands = {CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** Builds the command line (tests call this to run commands in-process). */
    public static CommandLine commandLine() {
        return new CommandLine(new Main());
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
