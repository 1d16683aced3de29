package org.vdpactl.orchestra;

import java.util.Objects;

/**
 * The migration of one device: the source it leaves and the destination it arrives at. In a one-host
 * rehearsal of the same devices both are the same device (reset in between).
 *
 * @param source      label of the source device
 * @param destination label of the destination device (equal to {@code source} for the same device)
 */
public record Lane(String source, String destination) {
    public Lane {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
    }

    /** A lane that migrates a device onto itself. */
    public static Lane same(String device) {
        return new Lane(device, device);
    }

    public boolean sameDevice() {
        return source.equals(destination);
    }

    /** The device that runs {@code phase} in this lane. */
    public String deviceFor(Phase phase) {
        return phase.side() == Phase.Side.DESTINATION ? destination : source;
    }

    @Override
    public String toString() {
        return sameDevice() ? source : source + " -> " + destination;
    }
}
