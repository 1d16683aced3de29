package org.vdpactl.cli.vhost;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.vdpactl.cli.CommandContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vdpactl vhost suspend DEV...}. */
@Command(name = "suspend", mixinStandardHelpOptions = true,
        description = {"Suspend devices in parallel and time each VHOST_VDPA_SUSPEND.",
                       "A device opened here is first brought to DRIVER_OK and is reset when vdpactl exits;",
                       "use --fd to act on a descriptor a VMM passed in."})
final class VhostSuspendCommand implements Callable<Integer> {
    @Mixin
    CommandContext context;

    @Parameters(paramLabel = "DEV", arity = "0..*", description = "Devices to suspend: vdpa device names or /dev/vhost-vdpa-N.")
    List<String> devices = new ArrayList<>();

    @Option(names = "--fd", paramLabel = "N", description = "An already open vhost-vdpa descriptor.")
    Integer fd;

    @Option(names = "--and-resume", description = "Resume right after, and time that too.")
    boolean andResume;

    @Override
    public Integer call() {
        return SuspendResumeRun.run(context.get(), devices, fd, true, andResume);
    }
}
