package org.vdpactl.orchestra;

/**
 * A recorded call failed. Carries the failed span (device, phase, call, errno) and the cause (a
 * {@link org.vdpactl.vhost.VhostException} with the kernel's errno, or whatever else the call threw).
 */
public final class CallFailedException extends RuntimeException {
    private final transient Span span;

    CallFailedException(Span span, RuntimeException cause) {
        super(span.device() + ": " + span.call() + " (" + span.phase().label() + ") failed: " + cause.getMessage(), cause);
        this.span = span;
    }

    public Span span() {
        return span;
    }
}
