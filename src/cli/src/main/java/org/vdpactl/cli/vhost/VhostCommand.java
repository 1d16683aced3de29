package org.vdpactl.cli.vhost;

import java.util.List;

import org.vdpactl.cli.CommandContext;
import org.vdpactl.cli.CommandGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code vdpactl vhost ...}: one /dev/vhost-vdpa-N at the ioctl level. A command that hands its arguments to a
 * runner is a {@code @Command} method here, which picocli registers by itself (sorted by method name), so adding
 * one edits no list; a command with state or rendering of its own is a class named in {@code subcommands}.
 */
@Command(name = "vhost", mixinStandardHelpOptions = true,
        description = "Inspect and drive vhost-vdpa character devices (DEV = vdpa device name or /dev/vhost-vdpa-N).",
        subcommands = {VhostInfoCommand.class})
public final class VhostCommand extends CommandGroup {

    /** {@code vdpactl vhost suspend DEV...}. */
    @Command(name = "suspend", mixinStandardHelpOptions = true,
            description = {"Suspend devices in parallel and time each VHOST_VDPA_SUSPEND.",
                           "A device opened here is first brought to DRIVER_OK and is reset when vdpactl exits;",
                           "use --fd to act on a descriptor a VMM passed in."})
    int suspend(@Mixin CommandContext context,
                @Parameters(paramLabel = "DEV", arity = "0..*",
                        description = "Devices to suspend: vdpa device names or /dev/vhost-vdpa-N.") List<String> devices,
                @Option(names = "--fd", paramLabel = "N", description = "An already open vhost-vdpa descriptor.") Integer fd,
                @Option(names = "--and-resume", description = "Resume right after, and time that too.") boolean andResume) {
        return SuspendResumeRun.run(context.get(), orNone(devices), fd, true, andResume);
    }

    /** {@code vdpactl vhost resume DEV...}. */
    @Command(name = "resume", mixinStandardHelpOptions = true,
            description = {"Resume devices in parallel and time each VHOST_VDPA_RESUME.",
                           "A device opened here is brought to DRIVER_OK and suspended first."})
    int resume(@Mixin CommandContext context,
               @Parameters(paramLabel = "DEV", arity = "0..*",
                       description = "Devices to resume: vdpa device names or /dev/vhost-vdpa-N.") List<String> devices,
               @Option(names = "--fd", paramLabel = "N", description = "An already open vhost-vdpa descriptor.") Integer fd) {
        return SuspendResumeRun.run(context.get(), orNone(devices), fd, false, false);
    }

    /** picocli may leave an unmatched multi-value parameter of a command method null. */
    private static List<String> orNone(List<String> devices) {
        return devices == null ? List.of() : devices;
    }
}
