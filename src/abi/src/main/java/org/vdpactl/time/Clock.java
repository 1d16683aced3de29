package org.vdpactl.time;

/**
 * Monotonic time as the orchestration layer and the fake kernel see it.
 *
 * <p>{@link RealClock} is {@link System#nanoTime()}: what the CLI uses on every backend, so its
 * figures are wall-clock figures. {@link VirtualClock} keeps one logical time per thread and never
 * waits: a fake device that "works" for 37 ms moves the calling thread's time by 37 ms in
 * microseconds of real time, deterministically. Work that runs in parallel on several threads
 * therefore costs the longest branch, and work serialised on one device (see {@link Resource})
 * costs the sum, exactly as on hardware.
 */
public interface Clock {

    /** This thread's current monotonic time in nanoseconds. */
    long nanoTime();

    /** Lets {@code nanos} pass on this thread (the real clock parks; the virtual one advances). */
    void sleepNanos(long nanos);

    /**
     * Declares that this thread now continues an activity that stood at {@code nanoTime}: a pool
     * thread picking up a task submitted at time t calls {@code continueAt(t)}, and a thread that
     * joined several tasks continues at the latest of their end times. The real clock ignores it
     * (real time has already passed); the virtual clock sets this thread's time.
     */
    void continueAt(long nanoTime);

    /** True for clocks that do not follow wall time. */
    boolean isVirtual();

    /** Creates a resource (a device, a firmware queue) on this clock whose work serialises. */
    default Resource newResource(String name) {
        return new Resource(this, name);
    }
}
