package org.vdpactl.orchestra;

import java.util.OptionalInt;

import org.vdpactl.sys.VdpactlException;

/**
 * A recorded call failed. Carries the failed span (device, phase, call, errno) and the cause (a
 * {@link org.vdpactl.vhost.VhostException} with the kernel's errno, or whatever else the call threw).
 */
public final class CallFailedException extends VdpactlException {
    private final transient Span span;

    CallFailedException(Span span, RuntimeException cause) {
        super(span.device() + ": " + span.call() + " (" + span.phase().label() + ") failed: " + cause.getMessage(), cause);
        this.span = span;
    }

    /** The errno the failed call returned, when it returned one. */
    @Override
    public OptionalInt kernelErrno() {
        return span.errno() > 0 ? OptionalInt.of(span.errno()) : OptionalInt.empty();
    }

    public Span span() {
        return span;
    }
}
