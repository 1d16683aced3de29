package org.vdpactl.lane;

import org.junit.jupiter.api.Assumptions;

/**
 * Guard of kernel-tagged tests that must only run inside the lane VM (scripts/vm-run exports
 * VDPACTL_IN_VM=1): elsewhere the test is skipped, and says so on stderr, instead of passing or
 * failing on a host without vdpa_sim.
 */
public final class LaneOnly {
    private LaneOnly() {
    }

    public static void requireVm() {
        if (System.getenv("VDPACTL_IN_VM") == null) {
            String why = "REAL-KERNEL TEST SKIPPED: not inside the lane VM (VDPACTL_IN_VM unset); run scripts/vm-lane";
            System.err.println(why);
            Assumptions.abort(why);
        }
    }
}
