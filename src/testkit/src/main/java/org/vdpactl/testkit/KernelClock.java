package org.vdpactl.testkit;

/** The fake kernel's clock in a test. */
public enum KernelClock {
    /** Simulated time: modelled latencies are exact and nothing waits (the default). */
    VIRTUAL,
    /** Wall-clock time: modelled latencies are real waits. */
    REAL
}
