package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class IotlbPlanWriterTest {
    /** Records what was written; the message numbered {@code failAt} (1-based) and later rollback writes may fail. */
    private static final class RecordingSink implements IotlbPlanWriter.MessageSink {
        final List<IotlbMessage> written = new ArrayList<>();
        int failAt = -1;
        boolean rollbackFails;
        int writes;

        @Override
        public void checkAsid(int asid) {
        }

        @Override
        public void write(int asid, int type, long iova, long size, long uaddr, int perm) {
            writes++;
            if (writes == failAt || writes > failAt && failAt > 0 && rollbackFails) {
                throw new IllegalStateException("write " + writes + " refused");
            }
            written.add(new IotlbMessage(IotlbCodec.V2, asid, type, iova, size, uaddr, perm));
        }
    }

    private final RecordingSink sink = new RecordingSink();
    private final IotlbPlanWriter writer = new IotlbPlanWriter("test", sink);

    @Test
    void aFailureOutsideABatchInvalidatesOnlyWhatWasWrittenAndEndsNoBatch() {
        sink.failAt = 3;
        IotlbPlan plan = IotlbPlan.of(List.of(
                IotlbMessage.update(0, 0, 0x1000, 0x10000, IotlbPermission.RW),
                IotlbMessage.update(0, 0x1000, 0x1000, 0x20000, IotlbPermission.RO),
                IotlbMessage.update(0, 0x2000, 0x1000, 0x30000, IotlbPermission.RW)));
        assertThrows(IllegalStateException.class, () -> writer.apply(plan));
        assertEquals(List.of(plan.message(0), plan.message(1),
                IotlbMessage.invalidate(0, 0, 0x1000), IotlbMessage.invalidate(0, 0x1000, 0x1000)), sink.written);
    }

    @Test
    void aFailingRollbackIsAttachedToTheOriginalFailure() {
        sink.failAt = 3;
        sink.rollbackFails = true;
        IotlbPlan plan = IotlbPlan.of(List.of(
                IotlbMessage.batchBegin(1),
                IotlbMessage.update(1, 0, 0x1000, 0x10000, IotlbPermission.RW),
                IotlbMessage.update(1, 0x1000, 0x1000, 0x20000, IotlbPermission.RW)));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> writer.apply(plan));
        assertEquals("write 3 refused", e.getMessage());
        assertEquals(1, e.getSuppressed().length);
        assertEquals("write 4 refused", e.getSuppressed()[0].getMessage()); // the BATCH_END of ASID 1
    }

    @Test
    void aPlanThatSucceedsIsWrittenAsIs() {
        IotlbPlan plan = IotlbPlan.of(List.of(IotlbMessage.batchBegin(0),
                IotlbMessage.update(0, 0, 0x1000, 0x10000, IotlbPermission.WO), IotlbMessage.batchEnd(0)));
        writer.apply(plan);
        assertEquals(3, sink.written.size());
        assertEquals(plan.messages(), sink.written);
    }
}
