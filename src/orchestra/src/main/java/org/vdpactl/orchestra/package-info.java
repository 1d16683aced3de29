/**
 * Live-migration downtime rehearsal across many vhost-vdpa devices.
 *
 * <p>A {@link org.vdpactl.orchestra.RehearsalPlan} names the devices (each its own destination, or
 * separate source and destination sets), the window phases ({@link org.vdpactl.orchestra.Phase}),
 * the {@link org.vdpactl.orchestra.Strategy} (serial, parallel, pipelined), premap on or off, the
 * {@link org.vdpactl.orchestra.GuestMemoryLayout} and the number of iterations.
 * {@link org.vdpactl.orchestra.Rehearsal#run} opens the devices through
 * {@link org.vdpactl.vhost.VhostVdpaDevice}, brings them up as a running guest has them, rehearses
 * the window, times every call as a {@link org.vdpactl.orchestra.Span} and returns a
 * {@link org.vdpactl.orchestra.RehearsalResult} with one {@link org.vdpactl.orchestra.Timeline} per
 * iteration (downtime, per-phase wall time, slowest device, critical path) and HdrHistogram
 * statistics. A failed call stops the window and brings every device back to a known state.
 *
 * <p>The package talks only to the syscall seam: the same code runs on the kernel and on the fake.
 */
package org.vdpactl.orchestra;
