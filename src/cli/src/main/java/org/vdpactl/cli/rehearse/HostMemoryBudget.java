package org.vdpactl.cli.rehearse;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.vdpactl.cli.Sizes;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;

/**
 * How much guest memory a real host can give a rehearsal: half of MemAvailable, since a PA-mode
 * device (mlx5) pins, i.e. really allocates, every mapped page. RLIMIT_MEMLOCK is not a reason to
 * shrink the memory: a rehearsal of a few MiB would say nothing about a real guest, so a too-low
 * limit is left to the kernel, whose refusal vdpactl reports with the memlock arithmetic. The fake
 * kernel only reserves address space, so the command does not apply this there.
 */
public final class HostMemoryBudget {
    private HostMemoryBudget() {
    }

    /** The layout cut to what the host can give, and the note saying so (empty when nothing was cut). */
    public static Reduced fit(Syscalls sys, GuestMemoryLayout layout) {
        Optional<Long> available = memAvailable(sys);
        if (available.isEmpty() || available.get() / 2 >= layout.totalBytes()) {
            return new Reduced(layout, Optional.empty());
        }
        GuestMemoryLayout cut = layout.truncatedTo(available.get() / 2);
        return new Reduced(cut, Optional.of("guest memory reduced from " + Sizes.format(layout.totalBytes()) + " to "
                + Sizes.format(cut.totalBytes()) + ": the host can give half of MemAvailable (" + Sizes.format(available.get())
                + "); PA-mode devices pin every mapped page"));
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
            // no meminfo: nothing to reduce by
        }
        return Optional.empty();
    }
}
