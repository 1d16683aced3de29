package org.vdpactl.fake.device;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The per-device counters vdpa_sim_net keeps for its vendor statistics (vdpasim_net_get_stats):
 * keyed by the names the kernel puts in VDPA_ATTR_DEV_VENDOR_ATTR_NAME. Like the kernel's, they
 * survive a device reset and live as long as the device. A name nothing counts reads 0.
 */
final class NetDatapathStats {
    static final String RX_PACKETS = "rx packets";
    static final String RX_BYTES = "rx bytes";
    static final String RX_ERRORS = "rx errors";
    static final String RX_OVERRUNS = "rx overruns";
    static final String RX_DROPS = "rx drops";
    static final String TX_PACKETS = "tx packets";
    static final String TX_BYTES = "tx bytes";
    static final String TX_ERRORS = "tx errors";
    static final String CVQ_REQUESTS = "cvq requests";
    static final String CVQ_SUCCESSES = "cvq successes";
    static final String CVQ_ERRORS = "cvq errors";

    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();

    void add(String name, long delta) {
        counters.computeIfAbsent(name, k -> new AtomicLong()).addAndGet(delta);
    }

    /** Every counter by name (a copy). */
    Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    long get(String name) {
        AtomicLong c = counters.get(name);
        return c == null ? 0 : c.get();
    }
}
