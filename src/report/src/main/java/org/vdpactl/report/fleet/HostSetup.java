package org.vdpactl.report.fleet;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.vdpactl.report.RehearsalText;

/**
 * What a host's figures depend on besides its hardware: hosts that differ in any of these are not
 * being compared like for like (a serial host against parallel ones, a 6.1 kernel, a real clock against
 * virtual ones, a premapped destination, 256 GiB of guest memory against 4, 64 devices against 4), and the
 * fleet report flags them. "-" stands for a value the document does not give (null in the JSON).
 *
 * @param strategy    serial, parallel, pipelined or svq
 * @param window      migration or in-place
 * @param kernel      the kernel release of the figures
 * @param backend     fake or kernel
 * @param preset      the fake's latency presets ("-" on the kernel)
 * @param clock       real or virtual
 * @param premap      whether the destination's memory was mapped before the window (--premap), or null
 * @param memoryBytes the guest memory rehearsed, or null
 * @param devices     the source devices rehearsed, or null
 * @param queuePairs  the queue pairs per device, or null
 */
public record HostSetup(String strategy, String window, String kernel, String backend, String preset, String clock,
        Boolean premap, Long memoryBytes, Integer devices, Integer queuePairs) {

    /** The attributes' names, in the order the reports show them. */
    public static final List<String> NAMES = List.of("strategy", "window", "premap", "memory", "devices", "queue_pairs",
            "kernel", "backend", "preset", "clock");

    /** A setup the document says nothing more of than its strategy, window, kernel, backend, preset and clock. */
    public HostSetup(String strategy, String window, String kernel, String backend, String preset, String clock) {
        this(strategy, window, kernel, backend, preset, clock, null, null, null, null);
    }

    /** The attributes by name, in {@link #NAMES} order, as the reports show them ("256 GiB", "yes"). */
    @JsonIgnore
    public Map<String, String> attributes() {
        List<String> values = List.of(strategy, window, premap == null ? "-" : premap ? "yes" : "no",
                memoryBytes == null ? "-" : RehearsalText.bytes(memoryBytes), devices == null ? "-" : devices.toString(),
                queuePairs == null ? "-" : queuePairs.toString(), kernel, backend, preset, clock);
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < NAMES.size(); i++) {
            m.put(NAMES.get(i), values.get(i));
        }
        return m;
    }
}
