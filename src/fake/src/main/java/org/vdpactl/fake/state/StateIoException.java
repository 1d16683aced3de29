package org.vdpactl.fake.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;

/**
 * The state file or its lock cannot be read or written. The message is one line ending in the
 * operating system's reason ("Permission denied", "No space left on device"), so the CLI can tell
 * a permission problem (exit 4) from others.
 */
public final class StateIoException extends UncheckedIOException {
    private final boolean permissionDenied;

    private StateIoException(String message, IOException cause, boolean permissionDenied) {
        super(message, cause);
        this.permissionDenied = permissionDenied;
    }

    static StateIoException of(String what, IOException e) {
        String reason;
        boolean denied;
        if (e instanceof AccessDeniedException) {
            reason = "Permission denied";
            denied = true;
        } else if (e instanceof FileSystemException fse && fse.getReason() != null) {
            reason = fse.getReason();
            // EPERM: an immutable or otherwise protected directory; the operator's remedy is the same
            denied = reason.equals("Operation not permitted") || reason.equals("Permission denied");
        } else {
            reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            denied = reason.contains("Permission denied");
        }
        String path = e instanceof FileSystemException fse && fse.getFile() != null ? " (" + fse.getFile() + ")" : "";
        return new StateIoException(what + ": " + reason + path, e, denied);
    }

    /** True when the operating system refused access (EACCES, EPERM). */
    public boolean permissionDenied() {
        return permissionDenied;
    }
}
