package org.vdpactl.cli.vhost;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.vdpactl.cli.CommandContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vdpactl vhost resume DEV...}. */
@Command(name = "resume", mixinStandardHelpOptions = true,
        description = {"Resume devices in parallel and time each VHOST_VDPA_RESUME.",
                       "A device opened here is brought to DRIVER_OK and suspended first."})
final class VhostResumeCommand implements Callable<Integer> {
    @Mixin
    CommandContext context;

    @Parameters(paramLabel = "DEV", arity = "0..*", description = "Devices to resume: vdpa device names or /dev/vhost-vdpa-N.")
    List<String> devices = new ArrayList<>();

    @Option(names = "--fd", paramLabel = "N", description = "An already open vhost-vdpa descriptor.")
    Integer fd;

    @Override
    public Integer call() {
        return SuspendResumeRun.run(context.get(), devices, fd, false, false);
    }
}
