package org.vdpactl.orchestra;

import java.util.Locale;
import java.util.Optional;

/**
 * The steps of a live-migration downtime as the rehearsal drives them, plus the bookkeeping phases
 * around the window. The window phases run in declaration order; a plan uses a subset of them.
 *
 * <p>Source side (the device the guest leaves): {@link #SUSPEND}, {@link #SAVE_STATE} and, for a
 * stop-and-copy rehearsal, {@link #UNMAP}. Destination side (the device the guest arrives at, which is
 * the same device after a reset in a one-host rehearsal): {@link #RESET}, {@link #CONFIGURE},
 * {@link #MAP}, {@link #DRIVER_OK}, {@link #CVQ_MQ}, {@link #RESUME}.
 */
public enum Phase {
    /** Open, SET_OWNER, backend features, bring-up of the source as a running guest would have it. */
    SETUP("setup", Side.NONE, false, "#bbbbbb"),
    /** Destination memory mapped before the downtime (--premap). */
    PREMAP("premap", Side.DESTINATION, false, "#999999"),
    /** VHOST_VDPA_SUSPEND. */
    SUSPEND("suspend", Side.SOURCE, true, "#D55E00"),
    /** GET_VRING_BASE of every virtqueue, status and config read back. */
    SAVE_STATE("save state", Side.SOURCE, true, "#E69F00"),
    /** Source memory unmapped (stop-and-copy: the source releases guest memory). */
    UNMAP("unmap", Side.SOURCE, true, "#000000"),
    /**
     * SET_STATUS(0) between the source and the destination role of one device. A dark grey: the mid grey it had merged
     * with CVQ MQ's and resume's colours, its neighbours in an in-place window, for a deuteranope (PhaseColoursTest).
     */
    RESET("reset", Side.DESTINATION, true, "#444444"),
    /**
     * Status ACK|DRIVER, features, FEATURES_OK, vring num/addr/base/call from the saved state (and each
     * vring's enable, on a device without ENABLE_AFTER_DRIVER_OK).
     */
    CONFIGURE("configure", Side.DESTINATION, true, "#56B4E9"),
    /** The guest memory layout as IOTLB batches (set_map in set_map drivers). */
    MAP("set_map", Side.DESTINATION, true, "#0072B2"),
    /** SET_STATUS(DRIVER_OK), then (ENABLE_AFTER_DRIVER_OK) the control queue's enable. */
    DRIVER_OK("DRIVER_OK", Side.DESTINATION, true, "#F0E442"),
    /**
     * The control-virtqueue replay of the number of queue pairs (VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET), then
     * (ENABLE_AFTER_DRIVER_OK) the data queues' enables: QEMU 8.2+'s state load before traffic.
     */
    CVQ_MQ("CVQ MQ", Side.DESTINATION, true, "#CC79A7"),
    /** VHOST_VDPA_RESUME of a device still suspended (none after the window's reset and restart). */
    RESUME("resume", Side.DESTINATION, true, "#009E73"),
    /** Bringing devices back to a known state after a failure. */
    ROLLBACK("rollback", Side.NONE, false, "#666666"),
    /** Bringing devices back to the pre-window state between iterations. */
    RESTORE("restore", Side.NONE, false, "#dddddd");

    /** Which role of a migration a phase belongs to. */
    public enum Side {
        SOURCE, DESTINATION, NONE
    }

    private final String label;
    private final Side side;
    private final boolean inWindow;
    private final String color;

    Phase(String label, Side side, boolean inWindow, String color) {
        this.label = label;
        this.side = side;
        this.inWindow = inWindow;
        this.color = color;
    }

    /** Display name ("suspend", "set_map"). */
    public String label() {
        return label;
    }

    /**
     * The name in JSON documents: lower-case snake_case, no spaces ("save_state", "driver_ok", "cvq_mq"),
     * so that a phase can be a key as well as a value.
     */
    public String id() {
        return name().equals("MAP") ? "set_map" : name().toLowerCase(Locale.ROOT);
    }

    /** The phase of a JSON {@link #id()}, if any. */
    public static Optional<Phase> ofId(String id) {
        for (Phase p : values()) {
            if (p.id().equals(id)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    public Side side() {
        return side;
    }

    /** True for the phases that make up the downtime window. */
    public boolean inWindow() {
        return inWindow;
    }

    /**
     * The report colour (CSS hex), shared by the timeline, the histograms and the fleet report: the
     * Okabe-Ito palette, which stays distinguishable for colour-blind readers; phases that follow one
     * another (set_map, DRIVER_OK; configure, resume) get colours far apart in hue and lightness. The
     * grey reset is the destination's preparation in a migration window (drawn hatched there).
     */
    public String color() {
        return color;
    }
}
