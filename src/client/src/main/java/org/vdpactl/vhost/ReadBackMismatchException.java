package org.vdpactl.vhost;

/**
 * Read-back verification (see {@link VhostVdpaDevice#setReadBackVerification(boolean)}) found that
 * the device does not hold what was just set: e.g. SET_STATUS(FEATURES_OK) accepted but GET_STATUS
 * shows the device dropped FEATURES_OK (it refused the features), or feature bits the device does
 * not offer were silently dropped by SET_FEATURES.
 */
public class ReadBackMismatchException extends VhostProtocolException {
    private final long expected;
    private final long actual;

    public ReadBackMismatchException(String operation, String device, long expected, long actual, String detail) {
        super(operation, device, "read back 0x" + Long.toHexString(actual) + ", expected 0x"
                + Long.toHexString(expected) + (detail == null ? "" : " (" + detail + ")"));
        this.expected = expected;
        this.actual = actual;
    }

    public long expected() {
        return expected;
    }

    public long actual() {
        return actual;
    }
}
