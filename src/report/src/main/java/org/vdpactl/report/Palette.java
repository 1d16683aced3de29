package org.vdpactl.report;

import org.vdpactl.orchestra.Phase;

/**
 * The colours of every report (timeline, histograms, fleet report): the phases' own colours
 * ({@link Phase#color()}, the Okabe-Ito palette) and the two that are not a phase.
 */
public final class Palette {
    /** The downtime as a whole (its histogram, the fleet report's bars): a neutral dark grey, no phase's colour. */
    public static final String DOWNTIME = "#3c3c3c";
    /** Marks, axes and the hatching of what is not downtime. */
    public static final String INK = "#424242";

    private Palette() {
    }

    /** The colour of the phase labelled {@code label} ("set_map", "CVQ MQ"), or {@link #DOWNTIME} for any other figure. */
    public static String forLabel(String label) {
        for (Phase p : Phase.values()) {
            if (p.label().equals(label)) {
                return p.color();
            }
        }
        return DOWNTIME;
    }
}
