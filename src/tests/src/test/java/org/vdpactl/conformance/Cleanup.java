package org.vdpactl.conformance;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a conformance case opened, closed after the case in reverse order. Every resource is closed
 * even when an earlier close fails (a leaked fd would make the next case's open fail with EBUSY on a
 * real kernel); the first failure is thrown with the later ones attached as suppressed.
 */
public final class Cleanup {
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    /** Registers {@code resource} to be closed after the case; returns it. */
    public <T extends AutoCloseable> T track(T resource) {
        resources.push(resource);
        return resource;
    }

    /** Registers an action (e.g. closing a raw fd) to run after the case, in the same order as resources. */
    public void defer(AutoCloseable action) {
        resources.push(action);
    }

    /** Closes everything registered, last first, and forgets it. */
    public void closeAll() throws Exception {
        Exception first = null;
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
