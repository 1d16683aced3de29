package org.vdpactl.orchestra;

import org.vdpactl.sys.Errno;

/**
 * The call that stopped a rehearsal.
 *
 * @param device  device label
 * @param phase   phase it belonged to
 * @param call    the call as the rehearsal's spans name it ("VHOST_VDPA_SUSPEND", "VHOST_GET_VRING_BASE vq3")
 * @param errno   positive errno, or -1 when the failure carried none
 * @param message the full error text (with the kernel's hint when there is one)
 */
public record RehearsalFailure(String device, Phase phase, String call, int errno, String message) {

    /** "EIO", or "error" without an errno. */
    public String errnoName() {
        return errno > 0 ? Errno.name(errno) : "error";
    }

    static RehearsalFailure of(CallFailedException e) {
        Span s = e.span();
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return new RehearsalFailure(s.device(), s.phase(), s.call(), s.errno(), cause.getMessage());
    }

    /**
     * One line: the device, the call, its phase, the errno, and the call's hint where it has one. A SUSPEND refused
     * with EIO on mlx5-2: {@code "mlx5-2: VHOST_VDPA_SUSPEND (suspend) failed: EIO (the parent driver failed the
     * operation (an I/O error of the device or its firmware: see the kernel log, dmesg))"}. A failure without an errno
     * says its message's first line instead of the errno.
     */
    public String summary() {
        if (errno <= 0 && message != null && !message.isBlank()) {
            // no errno to name (the fake's state lock, a protocol error): "error" alone told an operator nothing, and the
            // reason was only in the report on stdout
            return device + ": " + call + " (" + phase.label() + ") failed: " + message.strip().lines().findFirst().orElse("");
        }
        String base = device + ": " + call + " (" + phase.label() + ") failed: " + errnoName();
        int hint = message == null ? -1 : message.indexOf("\n  hint: ");
        return hint < 0 ? base : base + " (" + message.substring(hint + "\n  hint: ".length()).strip() + ")";
    }
}
