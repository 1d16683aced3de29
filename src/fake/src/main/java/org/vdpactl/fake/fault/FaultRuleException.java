package org.vdpactl.fake.fault;

import org.vdpactl.sys.VdpactlException;

/** A fault-rule file that cannot be used; the message is one line naming the problem. */
public final class FaultRuleException extends VdpactlException {
    public FaultRuleException(String message) {
        super(message);
    }

    /** A rule file that could not be read: {@code cause} says why (a missing file is not bad input but a path not found). */
    public FaultRuleException(String message, Throwable cause) {
        super(message, cause);
    }
}
