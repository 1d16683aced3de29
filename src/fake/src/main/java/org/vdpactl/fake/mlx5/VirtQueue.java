package org.vdpactl.fake.mlx5;

import java.util.EnumSet;
import java.util.Set;

/** Driver-side state of one data VQ (§6.2): FW state, size, ready flag, pending modify fields. */
final class VirtQueue {
    /** Fields a MODIFY can carry (§3.2, {@code modified_fields}). */
    enum Field { ADDRS, AVAIL_IDX, USED_IDX, VIRTIO_VERSION, QUEUE_FEATURES, VQ_MKEY, DESC_MKEY }

    /** Pending changes that make a 6.11+ reset tear the VQs down ({@code needs_vqs_reset}). */
    static final Set<Field> RING_STATE = EnumSet.of(Field.ADDRS, Field.AVAIL_IDX, Field.USED_IDX);

    final int index;
    VqState state = VqState.NONE;
    int size;
    int objectSize;
    boolean ready;
    /**
     * {@code mvq->used_idx}: the index SET_VRING_BASE gave (mlx5_vdpa_set_vq_state), or the one suspend_vq
     * read back from the FW; what get_vq_state reports while the VQ has no FW object.
     */
    int usedIdx;
    /** The FW object's {@code hw_used_index}: set by a filled create or a modify carrying USED_IDX (the fake's FW moves no frames). */
    int fwUsedIdx;
    final EnumSet<Field> pending = EnumSet.noneOf(Field.class);
    MemoryRegion mr;

    VirtQueue(int index, int size) {
        this.index = index;
        this.size = size;
    }

    boolean exists() {
        return state != VqState.NONE;
    }
}
