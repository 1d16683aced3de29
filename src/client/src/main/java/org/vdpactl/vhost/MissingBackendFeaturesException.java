package org.vdpactl.vhost;

import org.vdpactl.sys.VdpactlException;

/**
 * Backend-feature negotiation refused early: the device does not offer a bit the caller needs.
 * Nothing was acked.
 */
public class MissingBackendFeaturesException extends VdpactlException {
    private final String device;
    private final BackendFeatures offered;
    private final BackendFeatures missing;

    public MissingBackendFeaturesException(String device, BackendFeatures offered, BackendFeatures needed) {
        super(device + ": the device does not offer the backend features " + String.join(", ", needed.minus(offered).names())
                + " (offered " + offered + ", needed " + needed + ")" + hintFor(needed.minus(offered)));
        this.device = device;
        this.offered = offered;
        this.missing = needed.minus(offered);
    }

    private static String hintFor(BackendFeatures missing) {
        if (missing.has(BackendFeature.RESUME) || missing.has(BackendFeature.SUSPEND)) {
            return "; hint: the parent driver (or the kernel) lacks suspend/resume: VHOST_VDPA_RESUME needs Linux >= 6.4,"
                    + " mlx5 resumable VQs need >= 6.8";
        }
        if (missing.has(BackendFeature.IOTLB_MSG_V2) || missing.has(BackendFeature.IOTLB_BATCH)) {
            return "; hint: memory is mapped with batched v2 IOTLB messages and there is no fallback without them:"
                    + " use a kernel and driver that offer IOTLB_MSG_V2 and IOTLB_BATCH";
        }
        return "";
    }

    public String device() {
        return device;
    }

    public BackendFeatures offered() {
        return offered;
    }

    /** The needed bits the device does not offer. */
    public BackendFeatures missing() {
        return missing;
    }
}
