package org.vdpactl.orchestra;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Shared by the lanes of one window: the first failure stops every lane at its next call, so no
 * device starts a new step once one device has failed.
 */
final class WindowControl {
    private final AtomicReference<RehearsalFailure> first = new AtomicReference<>();

    /** Records a failure; only the first one is kept. */
    void fail(RehearsalFailure failure) {
        first.compareAndSet(null, failure);
    }

    boolean aborted() {
        return first.get() != null;
    }

    /** The first failure, or null. */
    RehearsalFailure failure() {
        return first.get();
    }

    /** Thrown inside a lane that stops because another lane failed; never a failure of its own. */
    static final class Stopped extends RuntimeException {
        Stopped() {
            super("stopped after a failure on another device", null, false, false);
        }
    }
}
