package org.vdpactl.cli.rehearse;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.vdpactl.cli.Sizes;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.MemlockLimit;

/**
 * How much guest memory a real host can give a rehearsal: half of MemAvailable (the memfd pages of
 * a PA-mode device are pinned, i.e. really allocated), and no more than RLIMIT_MEMLOCK divided by
 * the devices (each vhost-vdpa device pins and accounts the same memory again). The fake kernel only
 * reserves address space, so it never reduces.
 */
public final class HostMemoryBudget {
    private HostMemoryBudget() {
    }

    /** The layout cut to what the host can give, and the note saying so (empty when nothing was cut). */
    public static Reduced fit(Syscalls sys, GuestMemoryLayout layout, int devices) {
        long budget = Long.MAX_VALUE;
        String why = null;
        Optional<Long> available = memAvailable(sys);
        if (available.isPresent() && available.get() / 2 < budget) {
            budget = available.get() / 2;
            why = "half of MemAvailable (" + Sizes.format(available.get()) + ")";
        }
        Optional<MemlockLimit> memlock = MemlockLimit.current();
        if (memlock.isPresent() && memlock.get().soft() >= 0 && memlock.get().soft() / devices < budget) {
            budget = memlock.get().soft() / devices;
            why = "RLIMIT_MEMLOCK " + memlock.get().describe() + " shared by " + devices + " devices (PA-mode devices pin every page)";
        }
        if (budget >= layout.totalBytes()) {
            return new Reduced(layout, Optional.empty());
        }
        GuestMemoryLayout cut = layout.truncatedTo(budget);
        return new Reduced(cut, Optional.of("guest memory reduced from " + Sizes.format(layout.totalBytes()) + " to "
                + Sizes.format(cut.totalBytes()) + ": the host can give " + why));
    }

    /**
     * A layout and the note about its reduction.
     *
     * @param layout what the rehearsal uses
     * @param note   present when it was reduced
     */
    public record Reduced(GuestMemoryLayout layout, Optional<String> note) {
    }

    private static Optional<Long> memAvailable(Syscalls sys) {
        try {
            String text = new String(sys.readSmallFile("/proc/meminfo"), StandardCharsets.US_ASCII);
            for (String line : text.split("\n")) {
                if (line.startsWith("MemAvailable:")) {
                    String[] f = line.trim().split("\\s+");
                    return Optional.of(Long.parseLong(f[1]) * 1024);
                }
            }
        } catch (SyscallException | NumberFormatException | ArrayIndexOutOfBoundsException e) {
            // no meminfo: no reduction from it
        }
        return Optional.empty();
    }
}
