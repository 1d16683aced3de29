package org.vdpactl.report.fleet;

import org.vdpactl.sys.VdpactlException;

/** An input file of {@code report merge} that is missing, unreadable or not a rehearsal document. */
public final class BadFleetInputException extends VdpactlException {
    public BadFleetInputException(String message) {
        super(message);
    }

    /** A file that could not be read: {@code cause} says why (a missing file is a path not found, not bad input). */
    public BadFleetInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
