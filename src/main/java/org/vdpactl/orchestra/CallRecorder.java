package org.vdpactl.orchestra;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.time.Clock;

/**
 * Times every call made on one device and keeps it as a {@link Span}. Used by one thread at a time
 * (the lane that owns the device; hand-over happens through the executor, which orders memory).
 * Inside the window it refuses to start a call once another lane has failed.
 */
final class CallRecorder {
    private final String device;
    private final Clock clock;
    private final List<Span> spans = new ArrayList<>();
    private Phase phase = Phase.SETUP;
    private WindowControl control;

    CallRecorder(String device, Clock clock) {
        this.device = device;
        this.clock = clock;
    }

    String device() {
        return device;
    }

    /** Sets the phase of the following calls and the window they belong to (null outside a window). */
    void enter(Phase p, WindowControl window) {
        this.phase = p;
        this.control = window;
    }

    Phase phase() {
        return phase;
    }

    <T> T call(String name, Supplier<T> op) {
        if (phase.inWindow() && control != null && control.aborted()) {
            throw new WindowControl.Stopped();
        }
        long start = clock.nanoTime();
        try {
            T result = op.get();
            spans.add(new Span(device, phase, name, start, clock.nanoTime(), 0));
            return result;
        } catch (RuntimeException e) {
            int errno = e instanceof SyscallException se ? se.errno() : -1;
            Span failed = new Span(device, phase, name, start, clock.nanoTime(), errno);
            spans.add(failed);
            throw new CallFailedException(failed, e);
        }
    }

    /**
     * Records that {@code name} failed although the call itself returned (a status read back
     * afterwards shows it), as a zero-length failed span, and returns the exception to throw.
     */
    CallFailedException failed(String name, RuntimeException cause) {
        long now = clock.nanoTime();
        Span failed = new Span(device, phase, name, now, now, -1);
        spans.add(failed);
        return new CallFailedException(failed, cause);
    }

    void run(String name, Runnable op) {
        call(name, () -> {
            op.run();
            return null;
        });
    }

    /** The spans recorded since the last drain. */
    List<Span> drain() {
        List<Span> out = List.copyOf(spans);
        spans.clear();
        return out;
    }
}
