package org.vdpactl.vhost;

import java.util.ConcurrentModificationException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Lets one thread at a time inside a handle whose calls share one native buffer. Reentrant for the
 * thread inside (a call may call another); a second thread is refused with
 * {@link ConcurrentModificationException} rather than made to wait, because two threads on one handle
 * are a caller bug, not contention to hide.
 *
 * <p>Used as {@code try (var _ = guard.enter()) { ... }}: {@link #enter()} returns this same object, so
 * guarding a call allocates nothing (the handle's ioctls are on the per-device hot path).
 */
final class OneThreadGuard implements AutoCloseable {
    private final String label;
    private final AtomicReference<Thread> user = new AtomicReference<>();
    /** Nesting depth of the thread inside; only that thread reads or writes it. */
    private int depth;

    OneThreadGuard(String label) {
        this.label = label;
    }

    /**
     * Enters for the current thread.
     *
     * @throws ConcurrentModificationException when another thread is inside
     */
    OneThreadGuard enter() {
        Thread me = Thread.currentThread();
        if (user.get() == me) {
            depth++;
            return this;
        }
        if (!user.compareAndSet(null, me)) {
            throw new ConcurrentModificationException(label + ": device handle used by " + me.getName() + " while "
                    + user.get() + " is using it; a handle is for one thread at a time");
        }
        depth = 1;
        return this;
    }

    /** Leaves; the outermost leave lets other threads in. */
    @Override
    public void close() {
        if (--depth == 0) {
            user.set(null);
        }
    }
}
