package org.vdpactl.sys;

import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;

/**
 * The one JNR-POSIX instance of the process, for the plain POSIX questions no binding of ours needs to
 * answer (uid, rlimits, stat), made in one place.
 */
public final class JnrPosix {
    private static volatile POSIX posix;

    private JnrPosix() {
    }

    /** The native POSIX, created on first use. */
    public static POSIX get() {
        POSIX p = posix;
        if (p == null) {
            synchronized (JnrPosix.class) {
                if (posix == null) {
                    posix = POSIXFactory.getNativePOSIX();
                }
                p = posix;
            }
        }
        return p;
    }
}
