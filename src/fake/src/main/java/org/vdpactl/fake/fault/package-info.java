/**
 * Fault injection: {@link org.vdpactl.fake.fault.FaultRule}s make a named call (an ioctl macro, a vdpa command,
 * {@code open}) on a device fail with an errno, stall, or fail on its n-th occurrence (docs/fake-faults.md).
 */
package org.vdpactl.fake.fault;
