package org.vdpactl.vhost;

import org.vdpactl.sys.VdpactlException;

/**
 * The kernel accepted a call but its answer breaks the protocol vdpactl relies on (an IOTLB write
 * that did not return 72, a value read back that differs from what was set). There is no errno.
 */
public class VhostProtocolException extends VdpactlException {
    private final String operation;
    private final String device;

    public VhostProtocolException(String operation, String device, String detail) {
        super(operation + " on " + device + ": " + detail);
        this.operation = operation;
        this.device = device;
    }

    public String operation() {
        return operation;
    }

    public String device() {
        return device;
    }
}
