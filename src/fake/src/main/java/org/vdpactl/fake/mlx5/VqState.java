package org.vdpactl.fake.mlx5;

/** Firmware state of a virtio_net_q object; NONE = no object (driver's {@code initialized = false}). */
public enum VqState {
    NONE, INIT, RDY, SUSPEND, ERR;

    /** Legal FW state changes checked before sending (§3.1; {@code is_valid_state_change()}). */
    boolean canChangeTo(VqState to, boolean resumable) {
        return switch (this) {
            case INIT -> to == RDY;
            case RDY -> to == SUSPEND;
            case SUSPEND -> resumable && to == RDY;
            default -> false;
        };
    }
}
