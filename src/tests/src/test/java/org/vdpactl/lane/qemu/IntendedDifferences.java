package org.vdpactl.lane.qemu;

import java.util.List;
import java.util.Set;
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

    /** A fact about the lane's device that an entry may need before it applies. */
    enum DeviceFact {
        /** The device does not offer VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK (6.1's vdpa_sim). */
        NO_ENABLE_AFTER_DRIVER_OK("device without ENABLE_AFTER_DRIVER_OK");

        private final String label;

        DeviceFact(String label) {
            this.label = label;
        }
    }

    /**
     * phase null matches the phase order; side "qemu", "vdpactl" or "order"; token a regex over the whole
     * token; {@code once}: explains each distinct token at most once (a second occurrence is a new difference);
     * qemu: the QEMU series ("7.2", "10.0") the entry applies to, empty for every QEMU the lane runs;
     * needs: a fact the compared device must have for the entry to apply, or null; limit: how many differences the
     * entry explains in one comparison at most (0: no limit), so that a call the rehearsal drops cannot hide behind
     * an entry meant for calls only QEMU makes.
     */
    record Entry(String id, Phase phase, String side, Pattern token, String reason, boolean once, List<String> qemu,
            DeviceFact needs, int limit) {
        /** The same entry, for the given QEMU series only. */
        Entry only(String... series) {
            return new Entry(id, phase, side, token, reason, once, List.of(series), needs, limit);
        }

        /** The same entry, explaining at most {@code n} differences of one comparison. */
        Entry upTo(int n) {
            return new Entry(id, phase, side, token, reason, once, qemu, needs, n);
        }

        /** The same entry, only where the compared device has {@code fact}. */
        Entry whenDevice(DeviceFact fact) {
            return new Entry(id, phase, side, token, reason, once, qemu, fact, limit);
        }

        boolean appliesTo(String series, Set<DeviceFact> facts) {
            return (qemu.isEmpty() || qemu.contains(series)) && (needs == null || facts.contains(needs));
        }

        /** "all" or the series joined ("7.2"), and the device fact the entry needs ("10.0; device without ..."). */
        String qemuLabel() {
            return (qemu.isEmpty() ? "all" : String.join(", ", qemu)) + (needs == null ? "" : "; " + needs.label);
        }

        boolean explains(TraceComparison.Difference d) {
            return (phase == null ? d.phase() == null || !side.equals("order") : d.phase() == phase)
                    && d.side().matches(side) && token.matcher(d.token()).matches();
        }
    }

    static Entry of(String id, Phase phase, String side, String regex, String reason) {
        return new Entry(id, phase, side, Pattern.compile(regex), reason, false, List.of(), null, 0);
    }

    /** An entry that explains each token it matches once only: an extra call of the same kind is unexplained. */
    static Entry once(String id, Phase phase, String side, String regex, String reason) {
        return new Entry(id, phase, side, Pattern.compile(regex), reason, true, List.of(), null, 0);
    }

    /**
     * The entries of a list that apply to one QEMU series and a device with no special facts (the fake's
     * 6.12 vdpasim_net): a 7.2-only entry does not excuse a 10.0 difference.
     */
    static List<Entry> forQemu(List<Entry> list, String series) {
        return forQemu(list, series, Set.of());
    }

    /** The entries that apply to one QEMU series and a device with these facts. */
    static List<Entry> forQemu(List<Entry> list, String series, Set<DeviceFact> facts) {
        return list.stream().filter(e -> e.appliesTo(series, facts)).toList();
    }

    /**
     * The runs of IOTLB updates QEMU 7.2 makes for one device's shadow control queue and the rehearsal does not (a run
     * of equal IOTLB tokens is one token, PhaseNormaliser): the command buffers (vhost_vdpa_net_cvq_start maps the out
     * and the in buffer) and the CVQ shadow ring's two areas (vhost_vdpa_svq_map_rings).
     */
    static final int CVQ_MAPS = 2;

    private static final String NO_SUSPEND = "QEMU 7.2 predates its VHOST_VDPA_SUSPEND support (QEMU 8.1): vhost_dev_stop"
            + " stops the device by a reset (vhost_vdpa_dev_start(false) -> vhost_vdpa_reset_device, then ACKNOWLEDGE|DRIVER and"
            + " the memory listener's unregistration), reads the control queue's base after it, and restarts from reset at cont;"
            + " the rehearsal suspends where the device offers SUSPEND, as current QEMU does";

    private static final Entry NO_SUSPEND_CALL =
            of("qemu72-no-suspend", Phase.SUSPEND, "vdpactl", "VHOST_VDPA_SUSPEND", NO_SUSPEND).only("7.2");
    private static final Entry STATE_READ_BACK =
            of("state-read-back", Phase.SAVE_STATE, "vdpactl", "VHOST_VDPA_GET_STATUS|VHOST_VDPA_GET_CONFIG_SIZE|VHOST_VDPA_GET_CONFIG",
                    "the rehearsal reads the status and config space back as the state it reports; QEMU keeps virtio-net's"
                            + " config in its own device model and reads nothing at stop");
    private static final Entry UNMAPS_AT_STOP =
            of("qemu-unmaps-at-stop", Phase.UNMAP, "qemu", "IOTLB (BATCH_BEGIN|INVALIDATE|BATCH_END)",
                    "QEMU unregisters its memory listener when it stops the device (its invalidations, one batch); the"
                            + " rehearsal's migration window keeps the source mapped and invalidates in the destination's set_map batch"
                            + " (--stop-and-copy rehearses the source's unmap)");
    private static final Entry INVALIDATES_IN_SET_MAP =
            of("rehearsal-invalidates-in-set-map", Phase.MAP, "vdpactl", "IOTLB INVALIDATE",
                    "the same map change seen from the other side: the rehearsal's one set_map batch drops what is left and"
                            + " maps every region");
    private static final Entry ADD_STATUS_READS_FIRST =
            of("add-status-reads-first", null, "qemu", "VHOST_VDPA_GET_STATUS",
                    "vhost_vdpa_add_status reads the status before it sets the new bits (GET, SET, GET); the rehearsal reads"
                            + " it after each SET only, and the normaliser puts that first read into the phase before");
    private static final Entry ACK_AND_DRIVER =
            of("ack-and-driver-in-two-steps", Phase.CONFIGURE, "vdpactl", "VHOST_VDPA_SET_STATUS 0x1|VHOST_VDPA_GET_STATUS",
                    "the rehearsal sets ACKNOWLEDGE and then DRIVER, as the virtio spec's driver initialisation does; QEMU"
                            + " adds both bits at once");
    private static final Entry ENABLE_PER_VHOST_DEV =
            of("enable-per-vhost-dev", null, "(qemu|vdpactl)", "VHOST_VDPA_SET_VRING_ENABLE",
                    "QEMU 7.2 enables the vrings of one vhost_dev (a queue pair, then the control queue) after setting them"
                            + " all up, before DRIVER_OK (vhost_vdpa_set_vring_ready from vhost_vdpa_dev_start); the rehearsal"
                            + " enables them where QEMU 8.2+ does when the device offers ENABLE_AFTER_DRIVER_OK (the control queue"
                            + " after DRIVER_OK, the data queues after its state load: the CVQ MQ phase), else each vring after"
                            + " its address")
                    .only("7.2");
    private static final Entry CONFIG_INTERRUPT =
            of("config-interrupt", null, "qemu", "VHOST_VDPA_SET_CONFIG_CALL",
                    "QEMU forwards the device's configuration-change interrupt to its guest (virtio-net's link status) and"
                            + " unbinds and binds it around stop and start; the rehearsal has no guest to tell and binds none")
                    .only("10.0");
    private static final Entry ENABLE_BEFORE_DRIVER_OK =
            of("enable-before-driver-ok-without-the-backend-feature", null, "(qemu|vdpactl)", "VHOST_VDPA_SET_VRING_ENABLE",
                    "the device does not offer VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK (6.1), so the rehearsal enables each"
                            + " vring with its set-up, before DRIVER_OK, as the vhost-vdpa contract asks: a later enable may start"
                            + " nothing there (6.1's mlx5_vdpa_set_vq_ready only sets its ready flag and the queue stays in INIT)."
                            + " QEMU 10.0 enables after DRIVER_OK regardless (net/vhost-vdpa.c vhost_vdpa_net_cvq_load), which"
                            + " vdpa_sim tolerates; where the device offers the feature the rehearsal enables exactly as QEMU 10.0")
                    .only("10.0").whenDevice(DeviceFact.NO_ENABLE_AFTER_DRIVER_OK);

    /** Against QEMU's plain stop/cont (no shadow virtqueues) and --strategy serial. */
    static final List<Entry> STOP_CONT = List.of(
            of("qemu72-stop-is-a-reset", null, "order",
                    "QEMU save state, reset, configure, unmap, save state, configure, set_map, DRIVER_OK"
                            + " / vdpactl suspend, save state, reset, configure, set_map, DRIVER_OK(, CVQ MQ)?", NO_SUSPEND).only("7.2"),
            NO_SUSPEND_CALL,
            STATE_READ_BACK,
            of("cvq-base-read-by-qemu", Phase.SAVE_STATE, "qemu", "VHOST_GET_VRING_BASE vq2",
                    "QEMU reads the control queue's base from the device when its control queue is not shadowed (7.2"
                            + " always; 8.0+ where the device cannot give the CVQ its own address space); the rehearsal drives"
                            + " its control queue itself and knows its position, as QEMU 8.0+ knows a shadowed CVQ's, so it"
                            + " reads the data queues' bases only (vq2: the lane's vdpasim_net has one queue pair, so its"
                            + " control queue is vq2)"),
            UNMAPS_AT_STOP,
            INVALIDATES_IN_SET_MAP,
            ADD_STATUS_READS_FIRST,
            ACK_AND_DRIVER,
            once("notifiers-masked-at-stop", Phase.CONFIGURE, "qemu", "VHOST_SET_VRING_CALL vq\\d+",
                    "vhost_net_stop unsets the guest notifiers after the reset, and virtio-pci's mask points each virtqueue's"
                            + " call at QEMU's masked notifier: a round of SET_VRING_CALL at stop besides the start's; the rehearsal"
                            + " binds every virtqueue's call eventfd once per start, as QEMU's start does (before SET_FEATURES),"
                            + " and leaves a stopped device's bindings alone"),
            once("backend-features-read-per-vhost-dev", Phase.CONFIGURE, "qemu", "VHOST_GET_BACKEND_FEATURES",
                    "QEMU 7.2 keeps one vhost_dev per queue pair and one for the control queue, and every vhost_dev_start"
                            + " reads the backend features (vhost_dev_set_features -> vhost_vdpa_set_backend_cap) while only the"
                            + " first sets them; the rehearsal reads and acks them once per device start, as that first one does"
                            + " (QEMU 10.0 the same: its control queue's vhost_dev reads them again)"),
            ENABLE_PER_VHOST_DEV,
            of("qemu10-restart-from-reset", null, "order",
                    "QEMU suspend, save state, configure, reset, configure, unmap, configure, set_map, DRIVER_OK, CVQ MQ"
                            + " / vdpactl suspend, save state, reset, configure, set_map, DRIVER_OK(, CVQ MQ)?",
                    "QEMU 10.0 suspends (one VHOST_VDPA_SUSPEND, from the first vhost_dev, before any base is read), then at"
                            + " stop unbinds the config interrupt and its shadow control queue's maps, resets, adds"
                            + " ACKNOWLEDGE|DRIVER and unmaps; at cont it starts from reset (no VHOST_VDPA_RESUME: QEMU 10.0 never"
                            + " issues it) and enables the CVQ, loads the state through it and enables the data queues after"
                            + " DRIVER_OK (the CVQ MQ phase). The rehearsal's order is the same but for the extra configure"
                            + " and unmap at QEMU's stop (config-interrupt, qemu-shadows-its-cvq, qemu-unmaps-at-stop); it has"
                            + " no CVQ MQ phase only where its enables come before DRIVER_OK"
                            + " (enable-before-driver-ok-without-the-backend-feature)")
                    .only("10.0"),
            CONFIG_INTERRUPT,
            of("qemu-shadows-its-cvq", Phase.CONFIGURE, "qemu",
                    "VHOST_VDPA_GET_VRING_GROUP|VHOST_VDPA_SET_GROUP_ASID|IOTLB (UPDATE|INVALIDATE) asid1",
                    "QEMU 8.0+ puts its control queue alone in address space 1 even without x-svq and shadows it"
                            + " (vhost_vdpa_net_cvq_start) to see the guest's control commands, the state a migration must"
                            + " restore; it maps the shadow CVQ's buffers there at start and unmaps them at stop. The rehearsal is"
                            + " itself the control queue's driver and knows that state without intercepting anything, so its"
                            + " serial window leaves these calls out (they are in QEMU's window: the serial rehearsal is shorter"
                            + " than QEMU 10.0's stop/cont by them; --strategy svq isolates the CVQ as QEMU does)")
                    .only("10.0"),
            once("cvq-own-vhost-dev", Phase.CONFIGURE, "(qemu|vdpactl)", "VHOST_SET_VRING_(NUM|BASE|ADDR|KICK|CALL) vq2",
                    "QEMU 10.0 starts the control queue's vhost_dev after the data queues' and sets its shadowed vring up in"
                            + " vhost_vdpa_svqs_start's order (size, base, kick, call, the shadow ring's maps, address); the"
                            + " rehearsal binds every call eventfd before SET_FEATURES and sets each vring up in one go (vq2: the"
                            + " lane device's control queue; each token once)")
                    .only("10.0"),
            ENABLE_BEFORE_DRIVER_OK);

    /** Against QEMU's SVQ migration (x-svq=on: source stop, destination start) and --strategy svq. */
    static final List<Entry> SVQ = List.of(
            of("svq-switch-order", null, "order",
                    "QEMU save state, configure, reset, configure, unmap, configure, set_map, DRIVER_OK"
                            + " / vdpactl suspend, save state, reset, configure, set_map, DRIVER_OK(, CVQ MQ)?",
                    "the lane's QEMU migrates with x-svq=on, so its source runs shadowed from the start and its stop is 7.2's"
                            + " reset (see qemu72-stop-is-a-reset): the dirty log's start, the shadow rings unmapped, reset,"
                            + " ACKNOWLEDGE|DRIVER, the guest memory unmapped; the rehearsal's svq window switches a device that runs"
                            + " on the guest's rings: suspend, state from the device, reset; both then start shadowed in the same"
                            + " order (each shadow vring's set-up with its two ring maps, the guest memory's batch, DRIVER_OK)")
                    .only("7.2"),
            of("svq10-switch-order", null, "order",
                    "QEMU save state, configure, suspend, configure, reset, configure, unmap, configure, set_map, DRIVER_OK, CVQ MQ"
                            + " / vdpactl suspend, save state, reset, configure, set_map, DRIVER_OK(, CVQ MQ)?",
                    "QEMU 10.0's source runs shadowed from the start (x-svq=on): the migration's start enables dirty logging"
                            + " (backend features read and acked: the leading save state and configure, svq-dirty-log-start), then"
                            + " its stop suspends, reads no base (each shadow virtqueue knows its position), unmaps the shadow"
                            + " rings, unbinds the config interrupt and unmaps the shadow CVQ's buffers, resets, adds"
                            + " ACKNOWLEDGE|DRIVER and unmaps the guest memory; the destination starts shadowed in the rehearsal's"
                            + " order and enables the vrings after DRIVER_OK (CVQ MQ). The rehearsal's svq window switches a device"
                            + " that runs on the guest's rings: suspend, state from the device, reset, the shadowed start; no CVQ"
                            + " MQ phase only where its enables come before DRIVER_OK"
                            + " (enable-before-driver-ok-without-the-backend-feature)")
                    .only("10.0"),
            NO_SUSPEND_CALL,
            STATE_READ_BACK,
            of("svq-source-already-shadowed", Phase.SAVE_STATE, "vdpactl", "VHOST_GET_VRING_BASE vq\\d+",
                    "with x-svq=on QEMU's source runs on shadow vrings from the start and takes each vring's position from its"
                            + " own shadow virtqueue (vhost_vdpa_get_vring_base answers without an ioctl); the rehearsal switches a"
                            + " device that runs on the guest's rings, whose positions only the device knows"),
            of("svq-dirty-log-start", null, "qemu", "VHOST_(GET|SET)_BACKEND_FEATURES",
                    "the migration's start enables dirty logging on each vhost_dev (vhost_dev_set_log -> vhost_dev_set_features,"
                            + " which reads and acks the backend features once more, and reads them again for the control queue's"
                            + " vhost_dev, as at every vhost_dev start); shadow vrings log in QEMU, nothing reaches the device, and"
                            + " the rehearsal has no dirty log. Explains the source's reads and ack before its stop and the"
                            + " control queue's vhost_dev read at the destination's start"),
            UNMAPS_AT_STOP,
            of("svq-cvq-own-address-space", Phase.RESET, "vdpactl", "IOTLB INVALIDATE asid1",
                    "the rehearsal's device runs as QEMU 8.0+ runs one without x-svq: its control queue alone in address space"
                            + " 1 (vhost_vdpa_net_cvq_start: VHOST_VDPA_SET_GROUP_ASID and the CVQ's memory mapped there); the switch"
                            + " drops that address space after the reset, since a shadowed start puts every vring in address space 0."
                            + " QEMU with x-svq=on (7.2, which has no such isolation, and 10.0, whose vhost_vdpa_net_cvq_start keeps"
                            + " an always-shadowed CVQ in address space 0) shadows every vring in address space 0 from the start"),
            ADD_STATUS_READS_FIRST,
            ACK_AND_DRIVER,
            once("svq-sizes-first", Phase.CONFIGURE, "(qemu|vdpactl)", "VHOST_SET_VRING_NUM vq\\d+",
                    "QEMU (7.2 and 10.0) sets the size of each vring of a vhost_dev in vhost_virtqueue_start and the rest of"
                            + " each shadowed vring afterwards (vhost_vdpa_svqs_start: base, kick, call, the two ring maps, address);"
                            + " the rehearsal sets each vring up in one go, in that same order after the size"),
            ENABLE_PER_VHOST_DEV,
            once("svq-source-unmaps-shadow-rings", null, "qemu", "IOTLB INVALIDATE",
                    "QEMU's source runs shadowed (x-svq=on) and unmaps its shadow rings one message each when it stops"
                            + " (vhost_vdpa_svq_unmap_rings, before the reset); the rehearsal's source runs on the guest's rings"),
            of("svq-cvq-maps", Phase.CONFIGURE, "qemu", "IOTLB UPDATE",
                    "QEMU maps its shadow control queue's command buffers (vhost_vdpa_net_cvq_start) and then the CVQ's shadow"
                            + " ring as it maps a data vring's (two runs of updates); the rehearsal's control queue is its own ring"
                            + " in the guest memory that set_map maps, so it has no maps of its own in address space 0."
                            + " Limited to the CVQ's two runs of one device (its command buffers, its ring's two areas): the data"
                            + " vrings' shadow-ring maps are the rehearsal's as well, and one it dropped is a difference")
                    .upTo(CVQ_MAPS),
            once("svq10-cvq-buffers-unmapped-at-stop", Phase.CONFIGURE, "qemu", "IOTLB INVALIDATE",
                    "QEMU 10.0's source unmaps its shadow control queue's two command buffers (vhost_vdpa_net_cvq_stop ->"
                            + " vhost_vdpa_cvq_unmap_buf, in address space 0 with x-svq=on) after unbinding the config interrupt,"
                            + " besides the shadow rings' unmaps (svq-source-unmaps-shadow-rings); the rehearsal has no CVQ buffers"
                            + " of its own in address space 0")
                    .only("10.0"),
            CONFIG_INTERRUPT,
            INVALIDATES_IN_SET_MAP,
            ENABLE_BEFORE_DRIVER_OK);
}
