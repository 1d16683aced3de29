package org.vdpactl.cli.rehearse;

import java.util.List;
import java.util.Optional;

import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.BackendFeatures;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * {@code rehearse --premap} on a device that is its own destination needs IOTLB_PERSIST (the map
 * must survive the reset in the window); without it no fallback exists, so the rehearsal is refused
 * before any set-up. The check only reads GET_BACKEND_FEATURES (no owner, no reset, node closed again).
 */
public final class PremapPreflight {
    private PremapPreflight() {
    }

    /** The one-line refusal for the first self-destination device without IOTLB_PERSIST, if any. */
    public static Optional<String> refusal(Syscalls sys, RehearsalPlan plan) {
        if (!plan.premap()) {
            return Optional.empty();
        }
        List<DeviceTarget> own = plan.destinations().stream().filter(plan.sources()::contains).toList();
        for (DeviceTarget t : own) {
            BackendFeatures offered;
            try (VhostVdpaDevice d = VhostVdpaDevice.open(sys, t.path())) {
                offered = d.getBackendFeatures();
            }
            if (!offered.has(BackendFeature.IOTLB_PERSIST)) {
                String first = KernelProfiles.firstAccepting(BackendFeature.IOTLB_PERSIST.bit())
                        .map(p -> "Linux " + p.version()).orElse("a newer kernel");
                return Optional.of("--premap needs the backend feature IOTLB_PERSIST on " + t.name() + " (" + t.path()
                        + "), its own destination, which offers only " + offered + "; first in " + first
                        + " with a driver that has reset_map; rehearse without --premap or with separate --destinations");
            }
        }
        return Optional.empty();
    }
}
