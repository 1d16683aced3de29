package org.vdpactl.cli.vhost;

import org.vdpactl.cli.CommandGroup;
import picocli.CommandLine.Command;

/** {@code vdpactl vhost ...}: one /dev/vhost-vdpa-N at the ioctl level. */
@Command(name = "vhost", mixinStandardHelpOptions = true,
        description = "Inspect and drive vhost-vdpa character devices (DEV = vdpa device name or /dev/vhost-vdpa-N).",
        subcommands = {VhostInfoCommand.class, VhostSuspendCommand.class, VhostResumeCommand.class})
public final class VhostCommand extends CommandGroup {
}
