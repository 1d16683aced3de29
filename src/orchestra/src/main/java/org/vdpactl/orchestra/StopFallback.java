package org.vdpactl.orchestra;

import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.BackendFeatures;

/**
 * How the rehearsal stops, reads and restarts a device that lacks VHOST_BACKEND_F_SUSPEND or
 * VHOST_BACKEND_F_RESUME, the way QEMU does (hw/virtio/vhost-vdpa.c, docs/rehearse.md):
 * {@code vhost_vdpa_suspend} resets the device ({@code vhost_vdpa_reset_device}) when SUSPEND is
 * not offered; {@code vhost_vdpa_get_vring_base} then refuses to trust the device (it returns -1
 * unless suspended) and {@code vhost_virtqueue_stop} takes the ring position from guest memory
 * ({@code virtio_queue_restore_last_avail_idx}: last avail = the used ring's idx); without RESUME
 * the device is started again from reset ({@code vhost_vdpa_reset_status}, then the full start).
 *
 * @param suspend the device has SUSPEND (acked)
 * @param resume  the device has RESUME (acked)
 */
record StopFallback(boolean suspend, boolean resume) {
    /** Phase marks shown in the table, JSON and HTML. */
    static final String RESET_INSTEAD_OF_SUSPEND = "fallback: reset instead of suspend";
    static final String RING_STATE_FROM_GUEST = "fallback: ring state read from guest memory (used idx)";
    static final String RESTART_INSTEAD_OF_RESUME = "fallback: reset and restart instead of resume";

    static StopFallback of(BackendFeatures acked) {
        return new StopFallback(acked.has(BackendFeature.SUSPEND), acked.has(BackendFeature.RESUME));
    }

    /** The phase mark of this device's suspend phase, or null when SUSPEND is used. */
    String suspendMark() {
        return suspend ? null : RESET_INSTEAD_OF_SUSPEND;
    }

    /** The phase mark of the save-state phase, or null when GET_VRING_BASE is trusted. */
    String saveStateMark() {
        return suspend ? null : RING_STATE_FROM_GUEST;
    }

    /** The phase mark of the resume phase, or null when RESUME is used. */
    String resumeMark() {
        return resume ? null : RESTART_INSTEAD_OF_RESUME;
    }
}
