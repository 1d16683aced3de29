package org.vdpactl.orchestra;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.time.Clock;

/**
 * Times every call made on one device and keeps it as a {@link Span}. Used by one thread at a time
 * (the lane that owns the device; hand-over happens through the executor, which orders memory).
 * Inside the window it refuses to start a call once another lane has failed.
 *
 * <p>A call is recorded into parallel primitive arrays that grow to the device's calls per
 * iteration once and are then reused: the window's calls allocate no span objects (256 devices make
 * 51,200 calls a window); the {@link Span}s are built when the rehearsal drains them, after the
 * window.
 */
final class CallRecorder {
    private static final int INITIAL_CAPACITY = 256;

    private final String device;
    private final Clock clock;
    private Phase phase = Phase.SETUP;
    private WindowControl control;

    private int size;
    private Phase[] phases = new Phase[INITIAL_CAPACITY];
    private String[] names = new String[INITIAL_CAPACITY];
    private long[] starts = new long[INITIAL_CAPACITY];
    private long[] ends = new long[INITIAL_CAPACITY];
    private int[] errnos = new int[INITIAL_CAPACITY];

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
        long start = begin();
        try {
            T result = op.get();
            record(name, start, clock.nanoTime(), 0);
            return result;
        } catch (RuntimeException e) {
            throw failedCall(name, start, e);
        }
    }

    void run(String name, Runnable op) {
        long start = begin();
        try {
            op.run();
            record(name, start, clock.nanoTime(), 0);
        } catch (RuntimeException e) {
            throw failedCall(name, start, e);
        }
    }

    /**
     * Records that {@code name} failed although the call itself returned (a status read back
     * afterwards shows it), as a zero-length failed span, and returns the exception to throw.
     */
    CallFailedException failed(String name, RuntimeException cause) {
        long now = clock.nanoTime();
        record(name, now, now, -1);
        return new CallFailedException(new Span(device, phase, name, now, now, -1), cause);
    }

    /** The spans recorded since the last drain. */
    List<Span> drain() {
        List<Span> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(new Span(device, phases[i], names[i], starts[i], ends[i], errnos[i]));
        }
        Arrays.fill(phases, 0, size, null);
        Arrays.fill(names, 0, size, null);
        size = 0;
        return List.copyOf(out);
    }

    private long begin() {
        if (phase.inWindow() && control != null && control.aborted()) {
            throw new WindowControl.Stopped();
        }
        return clock.nanoTime();
    }

    private CallFailedException failedCall(String name, long start, RuntimeException e) {
        int errno = e instanceof SyscallException se ? se.errno() : -1;
        long end = clock.nanoTime();
        record(name, start, end, errno);
        return new CallFailedException(new Span(device, phase, name, start, end, errno), e);
    }

    private void record(String name, long start, long end, int errno) {
        if (size == starts.length) {
            int n = size * 2;
            phases = Arrays.copyOf(phases, n);
            names = Arrays.copyOf(names, n);
            starts = Arrays.copyOf(starts, n);
            ends = Arrays.copyOf(ends, n);
            errnos = Arrays.copyOf(errnos, n);
        }
        phases[size] = phase;
        names[size] = name;
        starts[size] = start;
        ends[size] = end;
        errnos[size] = errno;
        size++;
    }
}
