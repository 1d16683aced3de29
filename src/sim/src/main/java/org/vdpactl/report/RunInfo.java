package org.vdpactl.report;

/**
 * Where the figures of a report come from.
 *
 * @param simulated   true on the fake kernel: every figure is labelled "simulated"
 * @param backend     "kernel", "fake (simulated devices, Linux 6.12), preset mlx5-612", ...
 * @param clock       "real" (wall clock) or "virtual" (the fake's simulated time)
 * @param command     the command line that produced it
 * @param kernel      the kernel release the figures are of: the fake's kernel profile ("6.12") or the running
 *                    kernel's {@code uname -r}; null when unknown
 * @param preset      the fake's latency presets of the rehearsed devices ("mlx5-612"), comma-separated; null
 *                    when none (the kernel, or a fake device without a preset)
 */
public record RunInfo(boolean simulated, String backend, String clock, String command, String kernel, String preset) {

    public RunInfo(boolean simulated, String backend, String clock, String command) {
        this(simulated, backend, clock, command, null, null);
    }

    /** " (simulated)" on the fake, "" on the kernel. */
    public String simulatedSuffix() {
        return simulated ? " (simulated)" : "";
    }
}
