package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class IotlbBatchPlannerTest {
    private static final long MIB = 1 << 20;
    static final long PAGE = 4096;

    static IotlbRegion region(long iova, long size) {
        return new IotlbRegion(iova, size, 0x7f00_0000_0000L + iova, IotlbPermission.RW);
    }

    private static List<String> types(IotlbPlan p) {
        return p.messages().stream().map(m -> m.messageType().name()).toList();
    }

    @Test
    void smallLayoutIsOneBatch() {
        IotlbPlan p = IotlbBatchPlanner.defaults().planMap(0, List.of(region(0, MIB), region(MIB, MIB)), IovaRange.FULL);
        assertEquals(List.of("BATCH_BEGIN", "UPDATE", "UPDATE", "BATCH_END"), types(p));
        assertEquals(2 * MIB, p.mappedBytes());
        assertEquals(1, p.batchCount());
    }

    @Test
    void defaultPageCapIsTheMlx5ReclaimCap() {
        assertEquals(50_000, IotlbBatchPlanner.defaults().maxPagesPerBatch());
        assertEquals(2048, IotlbBatchPlanner.defaults().maxEntriesPerBatch());
        assertTrue(IotlbBatchPlanner.defaults().batching());
    }

    @Test
    void batchesCloseWhenThePageCapWouldBeExceeded() {
        IotlbBatchPlanner planner = IotlbBatchPlanner.builder().maxPagesPerBatch(10).build();
        IotlbPlan p = planner.planMap(0, List.of(region(0, 6 * PAGE), region(6 * PAGE, 4 * PAGE), region(10 * PAGE, PAGE)),
                IovaRange.FULL);
        assertEquals(List.of("BATCH_BEGIN", "UPDATE", "UPDATE", "BATCH_END", "BATCH_BEGIN", "UPDATE", "BATCH_END"), types(p));
    }

    @Test
    void batchesCloseAtTheEntryCap() {
        IotlbBatchPlanner planner = IotlbBatchPlanner.builder().maxEntriesPerBatch(2).build();
        List<IotlbRegion> rs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            rs.add(region(i * PAGE, PAGE));
        }
        IotlbPlan p = planner.planMap(1, rs, IovaRange.FULL);
        assertEquals(3, p.batchCount());
        assertTrue(p.messages().stream().allMatch(m -> m.asid() == 1));
    }

    @Test
    void aRegionAboveThePageCapIsSplitIntoCapSizedUpdates() {
        IotlbBatchPlanner planner = IotlbBatchPlanner.builder().maxPagesPerBatch(4).build();
        IotlbPlan p = planner.planMap(0, List.of(region(0x100000, 10 * PAGE)), IovaRange.FULL);
        List<IotlbMessage> updates = p.messages().stream().filter(m -> m.messageType() == IotlbMessageType.UPDATE).toList();
        assertEquals(List.of(4 * PAGE, 4 * PAGE, 2 * PAGE), updates.stream().map(IotlbMessage::size).toList());
        assertEquals(0x100000 + 4 * PAGE, updates.get(1).iova());
        assertEquals(0x7f00_0000_0000L + 0x100000 + 4 * PAGE, updates.get(1).uaddr(), "host address advances with the iova");
        assertEquals(3, p.batchCount());
    }

    @Test
    void unbatchedPlanHasNoBatchMessages() {
        IotlbPlan p = IotlbBatchPlanner.builder().batching(false).build().planMap(0, List.of(region(0, PAGE), region(PAGE, PAGE)),
                IovaRange.FULL);
        assertEquals(List.of("UPDATE", "UPDATE"), types(p));
    }

    @Test
    void outOfRangeRegionIsRefusedWithItsIndex() {
        IovaRange range = new IovaRange(0x1000, 0xFFFF_FFFFL);
        IotlbPlanException e = assertThrows(IotlbPlanException.class,
                () -> IotlbBatchPlanner.defaults().planMap(0, List.of(region(0x1000, PAGE), region(0, PAGE)), range));
        assertEquals(1, e.regionIndex());
        assertTrue(e.getMessage().contains("outside the device's IOVA range"), e.getMessage());
        assertThrows(IotlbPlanException.class,
                () -> IotlbBatchPlanner.defaults().planMap(0, List.of(region(0xFFFF_F000L, 2 * PAGE)), range));
    }

    @Test
    void zeroSizeAndWrapAroundAreRefused() {
        assertTrue(assertThrows(IotlbPlanException.class, () -> IotlbBatchPlanner.defaults().planMap(0, List.of(region(0, 0)),
                IovaRange.FULL)).getMessage().contains("size 0"));
        assertTrue(assertThrows(IotlbPlanException.class, () -> IotlbBatchPlanner.defaults().planMap(0,
                List.of(region(-PAGE, 2 * PAGE)), IovaRange.FULL)).getMessage().contains("wraps"));
    }

    @Test
    void lastPageOfTheAddressSpaceIsFine() {
        IotlbPlan p = IotlbBatchPlanner.defaults().planMap(0, List.of(region(-PAGE, PAGE)), IovaRange.FULL);
        assertEquals(3, p.size());
    }

    @Test
    void overlappingRegionsAreRefusedBeforeTheKernelSeesThem() {
        IotlbPlanException e = assertThrows(IotlbPlanException.class, () -> IotlbBatchPlanner.defaults().planMap(0,
                List.of(region(0x10000, 0x10000), region(0, 0x1000), region(0x1F000, 0x2000)), IovaRange.FULL));
        assertEquals(2, e.regionIndex());
        assertTrue(e.getMessage().contains("overlaps region 0"), e.getMessage());
    }

    @Test
    void moreEntriesThanTheAddressSpaceLimitAreRefused() {
        List<IotlbRegion> rs = new ArrayList<>();
        for (int i = 0; i < 2049; i++) {
            rs.add(region(i * PAGE, PAGE));
        }
        IotlbPlanException e = assertThrows(IotlbPlanException.class, () -> IotlbBatchPlanner.defaults().planMap(0, rs, IovaRange.FULL));
        assertTrue(e.getMessage().contains("2049") && e.getMessage().contains("2048"), e.getMessage());
        assertEquals(2048 + 2, IotlbBatchPlanner.defaults().planMap(0, rs.subList(0, 2048), IovaRange.FULL).size());
    }

    @Test
    void unmapPlanInvalidatesEachRegion() {
        IotlbPlan p = IotlbBatchPlanner.defaults().planUnmap(1, List.of(region(0, PAGE), region(PAGE, PAGE)));
        assertEquals(List.of(IotlbMessage.batchBegin(1), IotlbMessage.invalidate(1, 0, PAGE), IotlbMessage.invalidate(1, PAGE, PAGE),
                IotlbMessage.batchEnd(1)), p.messages());
    }

    @Test
    void builderRejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> IotlbBatchPlanner.builder().maxEntriesPerBatch(2049));
        assertThrows(IllegalArgumentException.class, () -> IotlbBatchPlanner.builder().maxPagesPerBatch(0));
        assertThrows(IllegalArgumentException.class, () -> IotlbBatchPlanner.builder().pageSize(3000));
    }
}
