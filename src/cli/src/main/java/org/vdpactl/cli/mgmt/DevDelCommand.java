package org.vdpactl.cli.mgmt;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.vdpactl.cli.CliFailure;
import org.vdpactl.cli.CommandContext;
import org.vdpactl.cli.ExitCode;
import org.vdpactl.cli.StopSignals;
import org.vdpactl.cli.host.HolderUsers;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.sys.Errno;
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
    /** How long a delete without --wait lets another process's delete of the same device end before it refuses. */
    private static final int OTHER_DELETE_GRACE_SECONDS = 2;

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
        try (StopSignals stop = StopSignals.install()) {
            waitUntilFree(context.get().syscalls(), waitSeconds == null ? 0 : waitSeconds, stop);
            try (VdpaNetlink nl = Netlink.open(context.get())) {
                nl.device(name); // ENODEV "device not found" before anything else
                nl.deleteDevice(name, waitSeconds == null ? null : Duration.ofSeconds(waitSeconds + 5L));
            }
            context.get().saveState();
            if (stop.requested()) {
                // the signal came while DEV_DEL ran, which cannot stop half-way: it is heard, and what it found said
                context.get().err().println("vdpactl: interrupted by " + stop.signalName() + " while deleting " + name
                        + ": the delete had begun and was completed; " + name + " is deleted");
                context.get().err().flush();
                return ExitCode.INTERRUPTED.code();
            }
        }
        return 0;
    }

    /** Why the node cannot be deleted now. */
    private enum Busy {
        /** Another process holds the node open (EBUSY). */
        HELD,
        /** Another delete has claimed the node (ENOENT while the device is still listed) and waits for its holder. */
        BEING_DELETED
    }

    /**
     * Returns once nobody holds the device's node (or it has none); refuses when still held after {@code seconds},
     * or at once without them. A delete of another process that claimed the node waits for the node's holder, maybe
     * for ever: this one waits for it only as long (at least {@link #OTHER_DELETE_GRACE_SECONDS}: such a delete
     * normally ends in milliseconds). Every wait is bounded, and SIGINT or SIGTERM ends it at the next poll.
     */
    private void waitUntilFree(Syscalls sys, int seconds, StopSignals stop) {
        String node;
        try {
            node = VhostDeviceNodes.resolve(sys, name).path();
        } catch (RuntimeException e) {
            return; // not bound to vhost_vdpa (or no such device: DEV_GET reports it)
        }
        Busy busy = busy(sys, node);
        if (busy == null) {
            return;
        }
        int bound = busy == Busy.BEING_DELETED ? Math.max(seconds, OTHER_DELETE_GRACE_SECONDS) : seconds;
        if (bound > 0) {
            if (seconds > 0) {
                context.get().err().println("vdpactl: " + name + ": " + node + " is " + what(busy, sys, node)
                        + "; the kernel's delete waits until it is closed: waiting up to " + bound + " s");
                context.get().err().flush();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(bound);
            do {
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CliFailure(ExitCode.INTERRUPTED, "interrupted while waiting for " + node + " to be closed;"
                            + " " + name + " was not deleted");
                }
                if (stop.requested()) {
                    throw new CliFailure(ExitCode.INTERRUPTED, "interrupted by " + stop.signalName() + " while waiting for "
                            + node + " to be closed; " + name + " was not deleted");
                }
                busy = busy(sys, node);
                if (busy == null) {
                    return;
                }
            } while (System.nanoTime() - deadline < 0);
        }
        String hint = busy == Busy.BEING_DELETED
                ? " (that delete waits until the node is closed; close it, or wait for that delete to end)"
                : " (the kernel's delete would wait until it is closed); close it first"
                        + (seconds > 0 ? ", or give a longer --wait" : ", or pass --wait SECONDS to wait for it");
        throw new CliFailure(ExitCode.KERNEL_ERROR, "device " + name + " is in use: " + node + " is " + what(busy, sys, node)
                + (bound > 0 ? " after " + bound + " s" : "") + hint);
    }

    private static Busy busy(Syscalls sys, String node) {
        return switch (VhostDeviceNodes.openErrno(sys, node)) {
            case Errno.EBUSY -> Busy.HELD;
            // the node resolved through sysfs a moment ago: ENOENT now means a delete took it, not a wrong name
            case Errno.ENOENT -> Busy.BEING_DELETED;
            default -> null;
        };
    }

    private static String what(Busy busy, Syscalls sys, String node) {
        return busy == Busy.HELD ? "held open by " + holders(sys, node)
                : "claimed by the delete of " + holders(sys, node);
    }

    private static String holders(Syscalls sys, String node) {
        List<String> holders = sys.holdersOf(node).stream().map(HolderUsers::withUser).toList();
        return holders.isEmpty() ? "another process" : String.join(", ", holders);
    }
}
