package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What IOTLB planning allocates (issue 37's hot path). On the class path (src/tests): the JVM's per-thread
 * allocation counter lives in java.management / jdk.management, which the client module does not read.
 */
class IotlbPlanningAllocationTest {
    private static IotlbRegion region(long iova, long size) {
        return new IotlbRegion(iova, size, 0x7f00_0000_0000L + iova, IotlbPermission.RW);
    }

    /**
     * Planning allocates the plan and nothing per message beside it (issue 37's hot path: plan, encode, write):
     * a layout in IOVA order is neither copied into per-chunk arrays nor sorted through boxed keys. The plan's
     * own arrays take 33 bytes a message (asid, type, iova, size, uaddr, perm); measured by the JVM's count of
     * this thread's allocated bytes, after warm-up (the count is exact; the JIT can only lower it).
     */
    @Test
    void planningAllocatesLittleMoreThanThePlanItself() {
        List<IotlbRegion> layout = new ArrayList<>();
        for (int i = 0; i < 1024; i++) {
            layout.add(region(i * 4096L, 4096));
        }
        IotlbBatchPlanner planner = IotlbBatchPlanner.defaults();
        var threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        long best = Long.MAX_VALUE;
        int messages = 0;
        for (int round = 0; round < 200; round++) {
            long before = threads.getThreadAllocatedBytes(tid);
            IotlbPlan map = planner.planMap(0, layout, IovaRange.FULL);
            IotlbPlan unmap = planner.planUnmap(0, layout);
            long bytes = threads.getThreadAllocatedBytes(tid) - before;
            messages = map.size() + unmap.size();
            best = Math.min(best, bytes);
        }
        assertEquals(2052, messages);
        // 33 B of arrays a message, their headers and the two plans' few objects: well under 40 B a message
        assertTrue(best <= 40L * messages, best + " bytes for " + messages + " messages: " + (double) best / messages + " B a message");
    }

}
