package org.vdpactl.report.fleet;

/** An input file of {@code report merge} that is missing, unreadable or not a rehearsal document. */
public final class BadFleetInputException extends IllegalArgumentException {
    public BadFleetInputException(String message) {
        super(message);
    }
}
