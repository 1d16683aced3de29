package org.vdpactl.fake.vhost;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The IOTLB state of one vhost-vdpa device ({@code struct vhost_vdpa}'s {@code as} hash,
 * {@code in_batch}/{@code batch_asid} of its vhost_dev and the IOVA range; docs/spec/kernel-abi.md
 * §5.2-§5.3): the address spaces by ASID, the batch in progress, the usable IOVA range. The
 * driver and the IOTLB message handler change it only through these methods.
 */
final class IotlbState {
    private final Map<Integer, IotlbTable> addressSpaces = new HashMap<>();
    private boolean inBatch;
    private int batchAsid;
    private long iovaFirst;
    private long iovaLast;

    /** vhost_vdpa_open: no address space, no batch, the device's IOVA range. */
    void reset(long first, long last) {
        addressSpaces.clear();
        inBatch = false;
        iovaFirst = first;
        iovaLast = last;
    }

    /** The AS object of {@code asid}, or null (vhost_vdpa_find_as). */
    IotlbTable table(int asid) {
        return addressSpaces.get(asid);
    }

    /** vhost_vdpa_alloc_as. */
    IotlbTable createTable(int asid, int limit) {
        IotlbTable t = new IotlbTable(limit);
        addressSpaces.put(asid, t);
        return t;
    }

    /** Unhashes the AS object (vhost_vdpa_remove_as); null when there was none. */
    IotlbTable removeTable(int asid) {
        return addressSpaces.remove(asid);
    }

    /** The ASIDs with an AS object, lowest first. */
    List<Integer> asids() {
        return List.copyOf(new TreeSet<>(addressSpaces.keySet()));
    }

    boolean inBatch() {
        return inBatch;
    }

    int batchAsid() {
        return batchAsid;
    }

    /** VHOST_IOTLB_BATCH_BEGIN. */
    void beginBatch(int asid) {
        batchAsid = asid;
        inBatch = true;
    }

    /** VHOST_IOTLB_BATCH_END, and the batch a release or a reopen forgets. */
    void endBatch() {
        inBatch = false;
    }

    long iovaFirst() {
        return iovaFirst;
    }

    long iovaLast() {
        return iovaLast;
    }
}
