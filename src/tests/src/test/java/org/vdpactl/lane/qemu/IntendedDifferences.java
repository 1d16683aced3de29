package org.vdpactl.lane.qemu;

import java.util.List;
import java.util.regex.Pattern;
import org.vdpactl.orchestra.Phase;

/**
 * The documented differences between QEMU's vhost-vdpa calls and the rehearsal's, each with its
 * reason. Short on purpose: where QEMU does something the rehearsal should do, the rehearsal
 * changes instead. docs/qemu-trace.md prints this list from the lane record.
 */
final class IntendedDifferences {
    private IntendedDifferences() {
    }

    /**
     * phase null matches the phase order; side "qemu", "vdpactl" or "order"; token a regex over the whole
     * token; {@code once}: explains each distinct token at most once (a second occurrence is a new difference).
     */
    record Entry(String id, Phase phase, String side, Pattern token, String reason, boolean once) {
        boolean explains(TraceComparison.Difference d) {
            return (phase == null ? d.phase() == null || !side.equals("order") : d.phase() == phase)
                    && d.side().matches(side) && token.matcher(d.token()).matches();
        }
    }

    static Entry of(String id, Phase phase, String side, String regex, String reason) {
        return new Entry(id, phase, side, Pattern.compile(regex), reason, false);
    }

    /** An entry that explains each token it matches once only: an extra call of the same kind is unexplained. */
    static Entry once(String id, Phase phase, String side, String regex, String reason) {
        return new Entry(id, phase, side, Pattern.compile(regex), reason, true);
    }

    private static final String NO_SUSPEND = "QEMU 7.2 predates its VHOST_VDPA_SUSPEND support (QEMU 8.1): vhost_dev_stop"
            + " stops the device by a reset (vhost_vdpa_dev_start(false) -> vhost_vdpa_reset_device, then ACKNOWLEDGE|DRIVER and"
            + " the memory listener's unregistration), reads the control queue's base after it, and restarts from reset at cont;"
            + " the rehearsal uses SUSPEND and RESUME where the device offers them, as current QEMU does";

    /** Against QEMU's plain stop/cont (no shadow virtqueues) and --strategy serial. */
    static final List<Entry> STOP_CONT = List.of(
            of("qemu72-stop-is-a-reset", null, "order",
                    "QEMU save state, reset, configure, unmap, save state, configure, set_map, DRIVER_OK"
                            + " / vdpactl suspend, save state, reset, configure, set_map, DRIVER_OK(, resume)?", NO_SUSPEND),
            of("qemu72-no-suspend", Phase.SUSPEND, "vdpactl", "VHOST_VDPA_SUSPEND", NO_SUSPEND),
            of("qemu72-no-resume", Phase.RESUME, "vdpactl", "VHOST_VDPA_RESUME|VHOST_VDPA_GET_STATUS", NO_SUSPEND),
            of("restart-read-back", Phase.DRIVER_OK, "vdpactl", "VHOST_VDPA_GET_STATUS",
                    "where the kernel has no RESUME (6.1), the rehearsal restarts the device and reads the status back after"
                            + " DRIVER_OK, the read-back it does after RESUME elsewhere; QEMU 7.2 reads the status only before it"
                            + " adds bits"),
            of("state-read-back", Phase.SAVE_STATE, "vdpactl", "VHOST_VDPA_GET_STATUS|VHOST_VDPA_GET_CONFIG_SIZE|VHOST_VDPA_GET_CONFIG",
                    "the rehearsal reads the status and config space back as the state it reports; QEMU keeps virtio-net's"
                            + " config in its own device model and reads nothing at stop"),
            of("qemu-unmaps-at-stop", Phase.UNMAP, "qemu", "IOTLB (BATCH_BEGIN|INVALIDATE|BATCH_END)",
                    "QEMU unregisters its memory listener when it stops the device (its invalidations, one batch); the"
                            + " rehearsal's migration window keeps the source mapped and invalidates in the destination's set_map batch"
                            + " (--stop-and-copy rehearses the source's unmap)"),
            of("rehearsal-invalidates-in-set-map", Phase.MAP, "vdpactl", "IOTLB INVALIDATE",
                    "the same map change seen from the other side: the rehearsal's one set_map batch drops what is left and"
                            + " maps every region"),
            of("add-status-reads-first", null, "qemu", "VHOST_VDPA_GET_STATUS",
                    "vhost_vdpa_add_status reads the status before it sets the new bits (GET, SET, GET); the rehearsal reads"
                            + " it after each SET only, and the normaliser puts that first read into the phase before"),
            of("ack-and-driver-in-two-steps", Phase.CONFIGURE, "vdpactl", "VHOST_VDPA_SET_STATUS 0x1|VHOST_VDPA_GET_STATUS",
                    "the rehearsal sets ACKNOWLEDGE and then DRIVER, as the virtio spec's driver initialisation does; QEMU"
                            + " adds both bits at once"),
            once("notifiers-masked-at-stop", Phase.CONFIGURE, "qemu", "VHOST_SET_VRING_CALL vq\\d+",
                    "vhost_net_stop unsets the guest notifiers after the reset, and virtio-pci's mask points each virtqueue's"
                            + " call at QEMU's masked notifier: a round of SET_VRING_CALL at stop besides the start's; the rehearsal"
                            + " binds every virtqueue's call eventfd once per start, as QEMU's start does (before SET_FEATURES),"
                            + " and leaves a stopped device's bindings alone"),
            once("backend-features-read-per-vhost-dev", Phase.CONFIGURE, "qemu", "VHOST_GET_BACKEND_FEATURES",
                    "QEMU 7.2 keeps one vhost_dev per queue pair and one for the control queue, and every vhost_dev_start"
                            + " reads the backend features (vhost_dev_set_features -> vhost_vdpa_set_backend_cap) while only the"
                            + " first sets them; the rehearsal reads and acks them once per device start, as that first one does"),
            of("enable-per-vhost-dev", Phase.CONFIGURE, "(qemu|vdpactl)", "VHOST_VDPA_SET_VRING_ENABLE",
                    "QEMU 7.2 enables the vrings of one vhost_dev (a queue pair, then the control queue) after setting them"
                            + " all up (vhost_vdpa_set_vring_ready); the rehearsal enables each vring after its address; both"
                            + " before DRIVER_OK"));
}
