package org.vdpactl.cli.vhost;

import java.util.concurrent.Callable;
import org.vdpactl.cli.CliContext;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.vhost.VhostInfo;
import org.vdpactl.vhost.VhostVdpaDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vdpactl vhost info DEV}. */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = {"Show everything the vhost-vdpa ioctls say about one device.",
                       "Id, features, backend features, status, queues, groups, address spaces, IOVA range",
                       "and the decoded config space."})
final class VhostInfoCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DEV", arity = "0..1", description = "vdpa device name or /dev/vhost-vdpa-N")
    String device;

    @Option(names = "--fd", paramLabel = "N", description = "Use an already open vhost-vdpa descriptor instead of DEV.")
    Integer fd;

    @Override
    public Integer call() {
        CliContext ctx = CliContext.current();
        if ((device == null) == (fd == null)) {
            throw new IllegalArgumentException("give exactly one of DEV or --fd N");
        }
        try (VhostVdpaDevice dev = fd != null ? DeviceOpener.inherited(ctx.syscalls(), fd) : DeviceOpener.open(ctx.syscalls(), device)) {
            if (fd == null) {
                // per-vq answers need ownership; taking it is harmless on a device we opened ourselves
                try {
                    dev.setOwner();
                } catch (SyscallException e) {
                    // another owner (inherited fd): per-vq fields stay empty
                }
            }
            VhostInfo info = VhostInfo.collect(dev);
            if (ctx.json()) {
                ctx.printJson(info);
            } else {
                ctx.out().print(info.toText());
                ctx.out().flush();
            }
        }
        return 0;
    }
}
