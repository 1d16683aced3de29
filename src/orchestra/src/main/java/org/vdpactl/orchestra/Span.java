package org.vdpactl.orchestra;

import org.vdpactl.sys.Errno;

/**
 * One call on one device, timed with the rehearsal's monotonic clock.
 *
 * @param device     device label (the vdpa device name, or the node path when no name is known)
 * @param phase      the phase the call belongs to
 * @param call       what was called: "SUSPEND", "GET_VRING_BASE vq3", "IOTLB UPDATE", ...
 * @param startNanos clock time when the call was issued
 * @param endNanos   clock time when it returned
 * @param errno      0 on success, else the positive errno the call failed with (-1: failed without errno)
 */
public record Span(String device, Phase phase, String call, long startNanos, long endNanos, int errno) {

    public long durationNanos() {
        return endNanos - startNanos;
    }

    public boolean failed() {
        return errno != 0;
    }

    /** "EBUSY", or null for a successful call. */
    public String errnoName() {
        if (errno == 0) {
            return null;
        }
        return errno < 0 ? "error" : Errno.name(errno);
    }
}
