package org.vdpactl.orchestra;

import org.vdpactl.sys.Errno;

/**
 * The call that stopped a rehearsal.
 *
 * @param device  device label
 * @param phase   phase it belonged to
 * @param call    the call ("SUSPEND", "GET_VRING_BASE vq3", "IOTLB BATCH_END")
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

    /** "mlx5-2: SUSPEND (suspend) failed: EIO", with the call's hint where it has one ("held open by pid 42 (qemu)"). */
    public String summary() {
        String base = device + ": " + call + " (" + phase.label() + ") failed: " + errnoName();
        int hint = message == null ? -1 : message.indexOf("\n  hint: ");
        return hint < 0 ? base : base + " (" + message.substring(hint + "\n  hint: ".length()).strip() + ")";
    }
}
