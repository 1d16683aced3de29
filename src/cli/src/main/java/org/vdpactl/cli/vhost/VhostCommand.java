package org.vdpactl.cli.vhost;

import java.util.List;
import java.util.concurrent.Callable;

import org.vdpactl.cli.CommandContext;
import org.vdpactl.cli.CommandGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code vdpactl vhost ...}: one /dev/vhost-vdpa-N at the ioctl level. Each command is a class named in
 * {@code subcommands}, in the order --help lists them. (They were {@code @Command} methods once; picocli builds a
 * method's model only from its annotations at run time, and the command line's models are written down at build time,
 * see CommandModel.)
 */
@Command(name = "vhost", mixinStandardHelpOptions = true,
        description = "Inspect and drive vhost-vdpa character devices (DEV = vdpa device name or /dev/vhost-vdpa-N).",
        subcommands = {VhostInfoCommand.class, VhostCommand.ResumeCommand.class, VhostCommand.SuspendCommand.class})
public final class VhostCommand extends CommandGroup {

    /** {@code vdpactl vhost suspend DEV...}. */
    @Command(name = "suspend", mixinStandardHelpOptions = true,
            description = {"Suspend devices in parallel and time each VHOST_VDPA_SUSPEND.",
                           "A device opened here is first brought to DRIVER_OK and is reset when vdpactl exits;",
                           "use --fd to act on a descriptor a VMM passed in."})
    static final class SuspendCommand implements Callable<Integer> {
        @Mixin
        CommandContext context;

        @Parameters(paramLabel = "DEV", arity = "0..*", description = "Devices to suspend: vdpa device names or /dev/vhost-vdpa-N.")
        List<String> devices;

        @Option(names = "--fd", paramLabel = "N", description = "An already open vhost-vdpa descriptor.")
        Integer fd;

        @Option(names = "--and-resume", description = "Resume right after, and time that too.")
        boolean andResume;

        @Override
        public Integer call() {
            return SuspendResumeRun.run(context.get(), orNone(devices), fd, true, andResume);
        }
    }

    /** {@code vdpactl vhost resume DEV...}. */
    @Command(name = "resume", mixinStandardHelpOptions = true,
            description = {"Resume devices in parallel and time each VHOST_VDPA_RESUME.",
                           "A device opened here is brought to DRIVER_OK and suspended first."})
    static final class ResumeCommand implements Callable<Integer> {
        @Mixin
        CommandContext context;

        @Parameters(paramLabel = "DEV", arity = "0..*", description = "Devices to resume: vdpa device names or /dev/vhost-vdpa-N.")
        List<String> devices;

        @Option(names = "--fd", paramLabel = "N", description = "An already open vhost-vdpa descriptor.")
        Integer fd;

        @Override
        public Integer call() {
            return SuspendResumeRun.run(context.get(), orNone(devices), fd, false, false);
        }
    }

    /** No device given leaves the parameter null. */
    private static List<String> orNone(List<String> devices) {
        return devices == null ? List.of() : devices;
    }
}
