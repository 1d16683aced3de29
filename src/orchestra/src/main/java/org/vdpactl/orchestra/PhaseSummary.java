package org.vdpactl.orchestra;

import java.util.Map;

/**
 * One window phase of one iteration across all devices.
 *
 * @param phase         the phase
 * @param startNanos    first call of the phase on any device
 * @param endNanos      last return of the phase on any device
 * @param wallNanos     time during which at least one device was in the phase (the union of the
 *                      devices' intervals: the sum under serial, the slowest device under a barrier)
 * @param deviceNanos   per device (in device order): first call to last return of that device in the phase
 * @param slowestDevice the device with the longest time in the phase
 * @param failedCalls   calls of the phase that failed
 */
public record PhaseSummary(Phase phase, long startNanos, long endNanos, long wallNanos, Map<String, Long> deviceNanos,
        String slowestDevice, int failedCalls) {

    public long slowestNanos() {
        return deviceNanos.getOrDefault(slowestDevice, 0L);
    }
}
