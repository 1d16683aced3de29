package org.vdpactl.sys;

import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;

/**
 * The one JNR-POSIX instance of the process, for the plain POSIX questions no binding of ours needs to
 * answer (uid, rlimits, stat). vdpactl ships without ASM (jnr-ffi's optional code generator, a large
 * dependency for calls this rare): when it is absent, jnr-ffi is told to bind through reflection instead
 * of failing on the missing class. A caller that brings ASM keeps jnr-ffi's default.
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
                    if (!asmPresent() && System.getProperty("jnr.ffi.asm.enabled") == null) {
                        System.setProperty("jnr.ffi.asm.enabled", "false");
                    }
                    posix = POSIXFactory.getNativePOSIX();
                }
                p = posix;
            }
        }
        return p;
    }

    private static boolean asmPresent() {
        try {
            Class.forName("org.objectweb.asm.ClassWriter", false, JnrPosix.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
