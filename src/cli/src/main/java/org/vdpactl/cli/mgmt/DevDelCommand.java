package org.vdpactl.cli.mgmt;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
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
 * open: it takes the global vdpa lock, and vhost_vdpa_remove then sleeps uninterruptibly until the
 * holder closes the node (a process stuck there cannot even be killed, and every other vdpa request
 * of the host waits for the lock meanwhile). So this command never sends DEV_DEL for a held node: it
 * checks that the node is free (one opener only: EBUSY means it is held) and refuses with a clear
 * error naming the holder, or, with --wait, says once on stderr whom it waits for, waits here (not in
 * the kernel) until the holder has closed the node, and gives up after the given time with the same
 * error. An opener that comes between the last check and DEV_DEL still makes the kernel wait for it.
 */
@Command(name = "del", mixinStandardHelpOptions = true, description = "Delete a vDPA device (needs CAP_NET_ADMIN).")
final class DevDelCommand implements Callable<Integer> {
    /** How often a waiting delete asks whether the holder closed the node (the kernel offers no wake-up). */
    private static final long POLL_MILLIS = 100;

    @Mixin
    CommandContext context;

    @Parameters(paramLabel = "NAME", description = "Device name.")
    String name;

    @Option(names = "--wait", paramLabel = "SECONDS", description = "Wait this long for a holder of the device node to close it"
            + " (saying once on stderr whom it waits for) instead of refusing at once.")
    Integer waitSeconds;

    @Override
    public Integer call() {
        if (waitSeconds != null && waitSeconds < 0) {
            throw new IllegalArgumentException("--wait must not be negative");
        }
        waitUntilFree(context.get().syscalls(), waitSeconds == null ? 0 : waitSeconds);
        try (VdpaNetlink nl = Netlink.open(context.get())) {
            nl.device(name); // ENODEV "device not found" before anything else
            nl.deleteDevice(name, waitSeconds == null ? null : Duration.ofSeconds(waitSeconds + 5L));
        }
        context.get().saveState();
        return 0;
    }

    /** Returns once nobody holds the device's node (or it has none); refuses when still held after {@code seconds}. */
    private void waitUntilFree(Syscalls sys, int seconds) {
        String node;
        try {
            node = VhostDeviceNodes.resolve(sys, name).path();
        } catch (RuntimeException e) {
            return; // not bound to vhost_vdpa (or no such device: DEV_GET reports it)
        }
        if (!VhostDeviceNodes.heldOpen(sys, node)) {
            return;
        }
        if (seconds > 0) {
            context.get().err().println("vdpactl: " + name + ": " + node + " is held open by " + holders(sys, node)
                    + "; the kernel's delete waits until it is closed: waiting up to " + seconds + " s");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            do {
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CliFailure(ExitCode.INTERRUPTED, "interrupted while waiting for " + node + " to be closed;"
                            + " " + name + " was not deleted");
                }
                if (!VhostDeviceNodes.heldOpen(sys, node)) {
                    return;
                }
            } while (System.nanoTime() - deadline < 0);
        }
        throw new CliFailure(ExitCode.KERNEL_ERROR, "device " + name + " is in use: " + node + " is held open by "
                + holders(sys, node) + (seconds > 0 ? " after " + seconds + " s" : "")
                + " (the kernel's delete would wait until it is closed); close it first or pass --wait SECONDS");
    }

    private static String holders(Syscalls sys, String node) {
        List<String> holders = sys.holdersOf(node);
        return holders.isEmpty() ? "another process" : String.join(", ", holders);
    }
}
