package org.vdpactl.orchestra;

import java.util.Locale;

/** How the devices of a rehearsal are driven through the window phases. */
public enum Strategy {
    /** One device after another, each through all its phases: what QEMU does. Pays the sum. */
    SERIAL,
    /** All devices per phase at once, with a barrier after each phase. Pays the sum of the per-phase maxima. */
    PARALLEL,
    /** Every device runs its phases without waiting for the others. Pays the slowest device. */
    PIPELINED;

    /** The CLI spelling. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses "serial", "parallel" or "pipelined" (any case). */
    public static Strategy parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown strategy '" + s + "' (expected serial, parallel or pipelined)", e);
        }
    }
}
