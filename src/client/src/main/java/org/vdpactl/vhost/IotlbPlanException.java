package org.vdpactl.vhost;

import org.vdpactl.sys.VdpactlException;

/**
 * A memory layout that cannot be mapped as given; found by {@link IotlbBatchPlanner} before anything
 * was written to the device.
 */
public class IotlbPlanException extends VdpactlException {
    private final int regionIndex;

    public IotlbPlanException(int regionIndex, String message) {
        super(regionIndex >= 0 ? "region " + regionIndex + ": " + message : message);
        this.regionIndex = regionIndex;
    }

    /** Index of the offending region in the caller's list, or -1 when the layout as a whole is refused. */
    public int regionIndex() {
        return regionIndex;
    }
}
