package org.vdpactl.cli.mgmt;

import java.time.Duration;
import java.util.concurrent.Callable;
import org.vdpactl.cli.CliFailure;
import org.vdpactl.cli.CommandContext;
import org.vdpactl.cli.ExitCode;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.VhostDeviceNodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dev del NAME}. The kernel's DEV_DEL does not return while the device's vhost-vdpa node is
 * open, holding the global vdpa lock meanwhile, and would delete the device later when the holder
 * closes it. So this command first checks that the node is free (one opener only: EBUSY means it is
 * held) and refuses with a clear error instead of hanging, unless --wait is given.
 */
@Command(name = "del", mixinStandardHelpOptions = true, description = "Delete a vDPA device (needs CAP_NET_ADMIN).")
final class DevDelCommand implements Callable<Integer> {
    @Mixin
    CommandContext context;

    @Parameters(paramLabel = "NAME", description = "Device name.")
    String name;

    @Option(names = "--wait", paramLabel = "SECONDS", description = "Wait this long for a holder of the device node to close it.")
    Integer waitSeconds;

    @Override
    public Integer call() {
        Syscalls sys = context.get().syscalls();
        if (waitSeconds == null) {
            refuseWhenHeld(sys);
        } else if (waitSeconds < 0) {
            throw new IllegalArgumentException("--wait must not be negative");
        }
        try (VdpaNetlink nl = Netlink.open(context.get())) {
            nl.device(name); // ENODEV "device not found" before anything else
            nl.deleteDevice(name, waitSeconds == null ? null : Duration.ofSeconds(waitSeconds + 5L));
        }
        context.get().saveState();
        return 0;
    }

    private void refuseWhenHeld(Syscalls sys) {
        String node;
        try {
            node = VhostDeviceNodes.resolve(sys, name).path();
        } catch (RuntimeException e) {
            return; // not bound to vhost_vdpa (or no such device: DEV_GET reports it)
        }
        if (VhostDeviceNodes.heldOpen(sys, node)) {
            java.util.List<String> holders = sys.holdersOf(node);
            throw new CliFailure(ExitCode.KERNEL_ERROR, "device " + name + " is in use: " + node + " is held open by "
                    + (holders.isEmpty() ? "another process" : String.join(", ", holders))
                    + " (the kernel's delete would wait until it is closed); close it first or pass --wait SECONDS");
        }
    }
}
