package org.vdpactl.orchestra;

import java.util.List;

/** Progress of a running rehearsal (the CLI draws its progress line from it). */
public interface RehearsalListener {
    RehearsalListener NONE = new RehearsalListener() {
    };

    /** The devices are open, mapped and running; the first window is about to start. */
    default void setUpDone(int devices) {
    }

    /** The window of iteration {@code index} is over (before the devices are restored or rolled back). */
    default void windowDone(int index) {
    }

    /** Iteration {@code index} (0-based) of {@code total} completed. */
    default void iterationDone(int index, int total, Timeline timeline) {
    }

    /**
     * The rehearsal is over and {@code devices} describes where each device stands; their fds are
     * still open (closing them next resets them in the kernel). For inspection of the devices.
     */
    default void beforeClose(List<DeviceReport> devices) {
    }
}
