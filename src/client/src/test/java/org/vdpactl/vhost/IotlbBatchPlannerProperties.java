package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vdpactl.vhost.IotlbBatchPlannerTest.PAGE;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** The batch planner's caps on any layout (jqwik; the examples are IotlbBatchPlannerTest). */
class IotlbBatchPlannerProperties {
    @Property
    void everyBatchRespectsBothCapsAndUpdatesCoverTheLayoutExactly(
            @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 1, max = 300) Integer> pagesPerRegion,
            @ForAll @IntRange(min = 1, max = 64) int maxPages, @ForAll @IntRange(min = 1, max = 8) int maxEntries) {
        List<IotlbRegion> rs = new ArrayList<>();
        long iova = 0x10_0000;
        long total = 0;
        for (int pages : pagesPerRegion) {
            rs.add(IotlbBatchPlannerTest.region(iova, pages * PAGE));
            iova += pages * PAGE + PAGE; // leave a hole
            total += pages * PAGE;
        }
        IotlbPlan p = IotlbBatchPlanner.builder().maxPagesPerBatch(maxPages).maxEntriesPerBatch(maxEntries)
                .maxEntriesPerAddressSpace(Integer.MAX_VALUE).build().planMap(0, rs, IovaRange.FULL);
        assertEquals(total, p.mappedBytes());
        long pages = 0;
        int entries = 0;
        boolean open = false;
        for (IotlbMessage m : p.messages()) {
            switch (m.messageType()) {
                case BATCH_BEGIN -> {
                    assertTrue(!open, "nested batch");
                    open = true;
                    pages = 0;
                    entries = 0;
                }
                case BATCH_END -> {
                    assertTrue(open);
                    open = false;
                }
                case UPDATE -> {
                    assertTrue(open, "update outside a batch");
                    pages += m.size() / PAGE;
                    entries++;
                    assertTrue(pages <= maxPages, "page cap");
                    assertTrue(entries <= maxEntries, "entry cap");
                }
                default -> throw new AssertionError(m);
            }
        }
        assertTrue(!open);
    }
}
