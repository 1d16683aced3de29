package org.vdpactl.orchestra;

import java.util.Locale;

/** How the devices of a rehearsal are driven through the window phases. */
public enum Strategy {
    /** One device after another, each through all its phases: what QEMU does. Pays the sum. */
    SERIAL,
    /** All devices per phase at once, with a barrier after each phase. Pays the sum of the per-phase maxima. */
    PARALLEL,
    /** Every device runs its phases without waiting for the others. Pays the slowest device. */
    PIPELINED,
    /**
     * QEMU's shadow-virtqueue path, one device after another as {@link #SERIAL}: each destination
     * starts with its data vrings shadowed (rings the VMM maps itself at IOVAs above guest memory,
     * one IOTLB update per ring area, outside any batch) and the guest memory remapped, every vring
     * in address space 0; before the window (and after each restore) a device runs as QEMU runs one
     * without SVQ, its control queue alone in address space 1 (VHOST_VDPA_SET_GROUP_ASID) where the
     * device can isolate it. Same-device with {@code --window in-place}: the switch to SVQ at the
     * start of a migration; separate destinations: a stop-and-copy to a shadowed destination.
     */
    SVQ;

    /** True when the destination starts with shadow virtqueues. */
    public boolean shadowed() {
        return this == SVQ;
    }

    /** The CLI spelling. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses "serial", "parallel", "pipelined" or "svq" (any case). */
    public static Strategy parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown strategy '" + s + "' (expected serial, parallel, pipelined or svq)", e);
        }
    }
}
