package org.vdpactl.report;

/**
 * Where the figures of a report come from.
 *
 * @param simulated   true on the fake kernel: every figure is labelled "simulated"
 * @param backend     "kernel", "fake (mlx5-612)", ...
 * @param clock       "real" (wall clock) or "virtual" (the fake's simulated time)
 * @param command     the command line that produced it
 */
public record RunInfo(boolean simulated, String backend, String clock, String command) {

    /** " (simulated)" on the fake, "" on the kernel. */
    public String simulatedSuffix() {
        return simulated ? " (simulated)" : "";
    }
}
