package org.vdpactl.vhost;

import java.util.OptionalInt;

import org.vdpactl.sys.VdpactlException;

/** A path or name that does not lead to a vhost-vdpa character device, with the reason (and stat(2)'s errno when it failed). */
public class VhostNodeException extends VdpactlException {
    /** Why the path or name leads nowhere usable: callers decide from this, never from the message. */
    public enum Reason {
        /** No vDPA device of that name, or nothing at that path. */
        MISSING,
        /** stat(2) of the path failed with {@link #errno()} (other than ENOENT). */
        STAT_FAILED,
        /** Something exists, but it is not a vhost-vdpa node (a file, another character device, a stale node, unbound). */
        NOT_A_VHOST_NODE,
        /** The vhost_vdpa module is not loaded (no vhost-vdpa major in /proc/devices, or it cannot be read). */
        MODULE_NOT_LOADED
    }

    private final String what;
    private final Reason reason;
    private final int errno;

    public VhostNodeException(String what, String reason) {
        this(what, Reason.NOT_A_VHOST_NODE, 0, reason);
    }

    public VhostNodeException(String what, Reason kind, int errno, String reason) {
        super(what + ": " + reason);
        this.what = what;
        this.reason = kind;
        this.errno = errno;
    }

    /** The path or name the user gave. */
    public String what() {
        return what;
    }

    public Reason reason() {
        return reason;
    }

    /** The errno of a failed stat(2) when there was one ({@link Reason#STAT_FAILED}, {@link Reason#MISSING} from ENOENT). */
    @Override
    public OptionalInt kernelErrno() {
        return errno > 0 ? OptionalInt.of(errno) : OptionalInt.empty();
    }

    /** The errno of a failed stat ({@link Reason#STAT_FAILED}, {@link Reason#MISSING} from ENOENT), else 0. */
    public int errno() {
        return errno;
    }
}
