/**
 * Clocks: {@link org.vdpactl.time.RealClock} for the real kernel, {@link org.vdpactl.time.VirtualClock} for
 * deterministic simulated time on the fake (latency assertions are exact, nothing waits), and
 * {@link org.vdpactl.time.Resource}, a serialised device resource whose work is charged to a clock.
 */
package org.vdpactl.time;
