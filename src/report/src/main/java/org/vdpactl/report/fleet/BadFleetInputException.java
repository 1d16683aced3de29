package org.vdpactl.report.fleet;

import org.vdpactl.sys.VdpactlException;

/** An input file of {@code report merge} that is missing, unreadable or not a rehearsal document. */
public final class BadFleetInputException extends VdpactlException {
    public BadFleetInputException(String message) {
        super(message);
    }
}
