package org.vdpactl.vhost;

/** A path or name that does not lead to a vhost-vdpa character device, with the reason. */
public class VhostNodeException extends IllegalArgumentException {
    private final String what;

    public VhostNodeException(String what, String reason) {
        super(what + ": " + reason);
        this.what = what;
    }

    /** The path or name the user gave. */
    public String what() {
        return what;
    }
}
