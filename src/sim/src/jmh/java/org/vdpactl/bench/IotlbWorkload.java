package org.vdpactl.bench;

import java.util.ArrayList;
import java.util.List;
import org.vdpactl.vhost.GuestMemory;
import org.vdpactl.vhost.IotlbPermission;
import org.vdpactl.vhost.IotlbRegion;

/**
 * The IOTLB workload of {@link IotlbBench} and {@link VhostDeviceBench} (and of src/bench/c/vhost_loop.c):
 * {@value #REGIONS} one-page regions of a shared memfd at consecutive IOVAs from {@value #IOVA_BASE}, mapped
 * in one batch and unmapped in another: {@value #MESSAGES} vhost_msg_v2 messages per cycle.
 */
final class IotlbWorkload {
    static final int REGIONS = 1024;
    /** REGIONS UPDATEs + REGIONS INVALIDATEs, each batch framed by BATCH_BEGIN and BATCH_END. */
    static final int MESSAGES = 2 * (REGIONS + 2);
    static final long PAGE = 4096;
    static final long IOVA_BASE = 0x1_0000_0000L;

    private IotlbWorkload() {
    }

    static long memoryBytes() {
        return REGIONS * PAGE;
    }

    static List<IotlbRegion> layout(GuestMemory memory) {
        List<IotlbRegion> layout = new ArrayList<>(REGIONS);
        for (int i = 0; i < REGIONS; i++) {
            layout.add(memory.region(i * PAGE, PAGE, IOVA_BASE + i * PAGE, IotlbPermission.RW));
        }
        return layout;
    }

    /** Fails when the planner's message count drifted from {@link #MESSAGES} (JMH needs it as a constant). */
    static void checkMessageCount(int map, int unmap) {
        if (map + unmap != MESSAGES) {
            throw new IllegalStateException("the planner made " + map + " + " + unmap + " messages, the benchmarks count "
                    + MESSAGES + "; update IotlbWorkload.MESSAGES");
        }
    }
}
