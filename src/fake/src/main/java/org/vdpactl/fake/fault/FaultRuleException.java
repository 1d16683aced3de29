package org.vdpactl.fake.fault;

/** A fault-rule file that cannot be used; the message is one line naming the problem. */
public final class FaultRuleException extends IllegalArgumentException {
    public FaultRuleException(String message) {
        super(message);
    }
}
