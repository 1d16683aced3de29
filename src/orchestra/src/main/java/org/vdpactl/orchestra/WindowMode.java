package org.vdpactl.orchestra;

import java.util.Locale;

/**
 * Where the downtime window of a rehearsal starts and ends when a device is its own destination
 * (with separate destination devices both modes are the same: the destination is opened and reset
 * before the window, as in a real migration).
 */
public enum WindowMode {
    /**
     * A live migration's window (default): from the first SUSPEND of a source to the last call of a
     * destination's start, without the destination's preparation. In a real migration the destination
     * device is opened, reset and has its VQs created (mlx5 from v6.11 creates them in the reset)
     * before the stop-and-copy begins; a device that is its own destination can only be reset
     * between its two roles, so that reset runs there but is shown as preparation and left out of
     * the downtime.
     */
    MIGRATION("migration"),
    /**
     * A device stopped and restarted in place, e.g. QEMU's switch to shadow virtqueues at the start
     * of a migration (the published "Downtime #1"): the reset between the roles is inside the window.
     * This was the only window before there was a choice.
     */
    IN_PLACE("in-place");

    private final String label;

    WindowMode(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Parses "migration" or "in-place". */
    public static WindowMode parse(String s) {
        for (WindowMode m : values()) {
            if (m.label.equals(s.trim().toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        throw new IllegalArgumentException("--window takes migration or in-place, got '" + s + "'");
    }
}
