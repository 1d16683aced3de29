package org.vdpactl.report;

import java.util.List;

/**
 * Where the figures of a report come from.
 *
 * @param simulated      true on the fake kernel: every figure is labelled "simulated"
 * @param backend        "kernel", "fake (mlx5-612)", ...
 * @param clock          "real" (wall clock) or "virtual" (the fake's simulated time)
 * @param command        the command line that produced it
 * @param backendFields  the backend as fields, for the JSON documents
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
