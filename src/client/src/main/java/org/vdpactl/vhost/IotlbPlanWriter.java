package org.vdpactl.vhost;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an {@link IotlbPlan} message by message and, when one fails, undoes what it wrote: an open
 * batch is ended, then the UPDATEs already written are invalidated. The kernel applies each message
 * on its own, so without this a failed plan would leave half an address space mapped.
 */
final class IotlbPlanWriter {
    private static final Logger LOG = LoggerFactory.getLogger(IotlbPlanWriter.class);

    /** One IOTLB message at a time, in the format the handle's acked backend features call for. */
    interface MessageSink {
        /** Throws (without writing) when {@code asid} cannot be used by this handle. */
        void checkAsid(int asid);

        /** Writes one message (one write(2)); throws on the kernel's refusal. */
        void write(int asid, int type, long iova, long size, long uaddr, int perm);
    }

    private final String label;
    private final MessageSink sink;

    IotlbPlanWriter(String label, MessageSink sink) {
        this.label = label;
        this.sink = sink;
    }

    /**
     * Writes every message of {@code plan} in order. Every ASID is checked before anything is written.
     * On a failure the error names the failing message and rollback failures are attached to it as
     * suppressed exceptions.
     */
    void apply(IotlbPlan plan) {
        int n = plan.size();
        for (int i = 0; i < n; i++) {
            sink.checkAsid(plan.asid[i]);
        }
        for (int i = 0; i < n; i++) {
            try {
                sink.write(plan.asid[i], plan.type[i], plan.iova[i], plan.size[i], plan.uaddr[i],
                        Byte.toUnsignedInt(plan.perm[i]));
            } catch (RuntimeException e) {
                throw failed(plan, i, e);
            }
        }
    }

    /**
     * The error of message {@code i} of {@code plan}, once what the plan wrote before it is rolled back. Kept out of
     * {@link #apply}, whose loop is the IOTLB hot path: this cold path (the message's text, the rollback) is compiled
     * on its own.
     */
    private RuntimeException failed(IotlbPlan plan, int i, RuntimeException e) {
        RuntimeException failure = e instanceof VhostException v
                ? (RuntimeException) v.withOperation(v.operation() + " (message " + (i + 1) + " of " + plan.size() + ")")
                : e;
        rollBack(plan, i, failure);
        return failure;
    }

    private void rollBack(IotlbPlan plan, int failedAt, RuntimeException failure) {
        int begin = IotlbMessageType.BATCH_BEGIN.code();
        int end = IotlbMessageType.BATCH_END.code();
        int update = IotlbMessageType.UPDATE.code();
        int openAsid = -1;
        int updates = 0;
        for (int i = 0; i < failedAt; i++) {
            if (plan.type[i] == begin) {
                openAsid = plan.asid[i];
            } else if (plan.type[i] == end) {
                openAsid = -1;
            } else if (plan.type[i] == update) {
                updates++;
            }
        }
        try {
            if (openAsid >= 0) {
                sink.write(openAsid, end, 0, 0, 0, 0);
            }
            if (updates == 0) {
                return;
            }
            LOG.warn("{}: IOTLB plan failed at message {}; invalidating the {} mappings already written", label, failedAt + 1,
                    updates);
            for (int i = 0; i < failedAt; i++) {
                if (plan.type[i] == update) {
                    sink.write(plan.asid[i], IotlbMessageType.INVALIDATE.code(), plan.iova[i], plan.size[i], 0, 0);
                }
            }
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
