package org.vdpactl.cli.vhost;

import picocli.CommandLine.Command;

/** {@code vdpactl vhost ...}: one /dev/vhost-vdpa-N at the ioctl level. */
@Command(name = "vhost", mixinStandardHelpOptions = true,
        description = "Inspect and drive vhost-vdpa character devices (DEV = vdpa device name or /dev/vhost-vdpa-N).",
        subcommands = {VhostInfoCommand.class, VhostSuspendCommand.class, VhostResumeCommand.class})
public final class VhostCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** A group without its subcommand is a usage error (exit 2): scripts must not mistake the usage for data. */
    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "missing subcommand: give one of "
                + String.join(", ", spec.subcommands().keySet().stream().filter(n -> !n.equals("ls")).toList()));
    }
}
