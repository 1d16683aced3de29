package org.vdpactl.report;

import java.util.List;

/**
 * Where the figures of a report come from.
 *
 * @param simulated      true on the fake kernel: every figure is labelled "simulated"
 * @param backend        "kernel", "fake (simulated devices, Linux 6.12), preset mlx5-612", ...
 * @param clock          "real" (wall clock) or "virtual" (the fake's simulated time)
 * @param command        the command line that produced it
 * @param backendFields  the backend as fields, for the JSON documents: its kind, the kernel the figures are of
 *                       (the fake's kernel profile "6.12", or the running kernel's {@code uname -r}) and the fake's
 *                       latency presets of the rehearsed devices
 */
public record RunInfo(boolean simulated, String backend, String clock, String command, BackendFields backendFields) {

    /** Without fields: the JSON says only the backend's kind. */
    public RunInfo(boolean simulated, String backend, String clock, String command) {
        this(simulated, backend, clock, command, new BackendFields(simulated ? "fake" : "kernel", null, null, List.of()));
    }

    /** " (simulated)" on the fake, "" on the kernel. */
    public String simulatedSuffix() {
        return simulated ? " (simulated)" : "";
    }
}
