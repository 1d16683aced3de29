package org.vdpactl.report.fleet;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a host's figures depend on besides its hardware: hosts that differ in any of these are not
 * being compared like for like (a serial host against parallel ones, a 6.1 kernel, a real clock against
 * virtual ones), and the fleet report flags them. "-" stands for a value the document does not give.
 *
 * @param strategy  serial, parallel, pipelined or svq
 * @param window    migration or in-place
 * @param kernel    the kernel release of the figures
 * @param backend   fake or kernel
 * @param preset    the fake's latency presets ("-" on the kernel)
 * @param clock     real or virtual
 */
public record HostSetup(String strategy, String window, String kernel, String backend, String preset, String clock) {

    /** The attributes' names, in the order the reports show them. */
    public static final List<String> NAMES = List.of("strategy", "window", "kernel", "backend", "preset", "clock");

    /** The attributes by name, in {@link #NAMES} order. */
    public Map<String, String> attributes() {
        List<String> values = List.of(strategy, window, kernel, backend, preset, clock);
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < NAMES.size(); i++) {
            m.put(NAMES.get(i), values.get(i));
        }
        return m;
    }
}
