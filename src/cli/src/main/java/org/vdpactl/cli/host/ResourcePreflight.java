package org.vdpactl.cli.host;

import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.cli.CliFailure;
import org.vdpactl.cli.ExitCode;
import org.vdpactl.fake.ResourceLimit;
import org.vdpactl.orchestra.Rehearsal;
import org.vdpactl.sys.SyscallException;

/**
 * The resource limits a rehearsal needs, checked before it touches any device: enough file
 * descriptors for every device (else a run of many devices fails with EMFILE midway through set-up,
 * leaving the devices it opened to be reset), and RLIMIT_MEMLOCK's soft limit raised to the hard one,
 * which any process may do, before drivers that pin guest memory (PA-mode vhost-vdpa checks every
 * IOTLB update against it). A limit that only root can raise is refused with its own exit code and
 * a line saying what is needed and how to get it.
 */
public final class ResourcePreflight {
    private static final Logger LOG = LoggerFactory.getLogger(ResourcePreflight.class);
    /** Room for what the process opens besides the rehearsal's own (netlink socket, log and report files). */
    static final int SPARE_DESCRIPTORS = 16;

    private ResourcePreflight() {
    }

    /** RLIMIT_NOFILE a rehearsal of {@code devices} devices needs, with {@code openNow} descriptors already open. */
    public static long descriptorsNeeded(int devices, int openNow) {
        return (long) openNow + (long) devices * Rehearsal.FILE_DESCRIPTORS_PER_DEVICE + Rehearsal.FILE_DESCRIPTORS_PER_REHEARSAL
                + SPARE_DESCRIPTORS;
    }

    /**
     * Makes {@code limits} cover a rehearsal of {@code devices} devices: raises the soft RLIMIT_NOFILE
     * toward the hard one when it is short, and RLIMIT_MEMLOCK's soft limit to its hard one.
     *
     * @throws CliFailure ({@link ExitCode#RESOURCE_LIMIT}) when the hard RLIMIT_NOFILE is too low
     */
    public static void prepare(ProcessLimits limits, int devices) {
        ensureDescriptors(limits, devices, "rehearsing");
        raiseMemlock(limits);
    }

    /** The RLIMIT_NOFILE part of {@link #prepare}; {@code doing} names the job in the message ("rehearsing"). */
    public static void ensureDescriptors(ProcessLimits limits, int devices, String doing) {
        ResourceLimit nofile = limits.nofile();
        raiseTo(nofile, descriptorsNeeded(devices, limits.openDescriptors()), devices, doing).ifPresent(raised -> {
            limits.setNofile(raised);
            LOG.debug("RLIMIT_NOFILE raised from {} to {} for {} devices", nofile, raised.soft(), devices);
        });
    }

    /**
     * What RLIMIT_NOFILE {@code nofile} must become for {@code needed} descriptors: empty when it
     * suffices, the soft limit raised to the hard one (what HotSpot does at start-up unless
     * -XX:-MaxFDLimit, and what any process may do) when that suffices.
     *
     * @throws CliFailure ({@link ExitCode#RESOURCE_LIMIT}) when only a higher hard limit would do
     */
    public static Optional<ResourceLimit> raiseTo(ResourceLimit nofile, long needed, int devices, String doing) {
        if (needed <= nofile.soft()) {
            return Optional.empty();
        }
        if (needed <= nofile.hard()) {
            return Optional.of(nofile.raisedToHard());
        }
        throw new CliFailure(ExitCode.RESOURCE_LIMIT, refusal(doing, devices, needed, nofile));
    }

    static String refusal(String doing, int devices, long needed, ResourceLimit nofile) {
        long fits = Math.max(0, (nofile.hard() - (needed - (long) devices * Rehearsal.FILE_DESCRIPTORS_PER_DEVICE))
                / Rehearsal.FILE_DESCRIPTORS_PER_DEVICE);
        long asked = roundUp(needed);
        return String.format(Locale.ROOT, "%s %d devices needs about %d file descriptors (%d per device) but RLIMIT_NOFILE is %s,"
                        + " and only root may raise the hard limit (nothing was done): raise it for this shell"
                        + " (ulimit -Hn %d as root, or prlimit --nofile=%d:%d --pid $$), for a service (LimitNOFILE=%d)"
                        + " or a login (nofile in /etc/security/limits.conf), or rehearse at most %d devices (--devices %d)",
                doing, devices, needed, Rehearsal.FILE_DESCRIPTORS_PER_DEVICE, nofile, asked, asked, asked, asked, fits, fits);
    }

    /** The next power of two at or above {@code n}: a limit an operator would type. */
    private static long roundUp(long n) {
        return Long.highestOneBit(n - 1) << 1;
    }

    /** RLIMIT_MEMLOCK's soft limit up to its hard one (allowed to any process); a refusal is logged, not fatal. */
    static void raiseMemlock(ProcessLimits limits) {
        ResourceLimit memlock = limits.memlock();
        if (memlock.soft() >= memlock.hard()) {
            return;
        }
        try {
            limits.setMemlock(memlock.raisedToHard());
            LOG.debug("RLIMIT_MEMLOCK raised from {} to its hard limit", memlock);
        } catch (SyscallException e) {
            LOG.debug("RLIMIT_MEMLOCK stays at {}: {}", memlock, e.getMessage());
        }
    }
}
