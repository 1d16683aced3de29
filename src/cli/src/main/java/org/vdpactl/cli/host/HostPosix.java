package org.vdpactl.cli.host;

import java.util.Optional;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import jnr.posix.util.DefaultPOSIXHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host's libc through JNR-POSIX, loaded on first use (it generates its bindings with ASM at run
 * time, some hundred milliseconds that commands asking no host question do not pay). Empty where the
 * native library cannot load: callers then answer "unknown", never fail a command for it.
 */
final class HostPosix {
    private static final Logger LOG = LoggerFactory.getLogger(HostPosix.class);

    private HostPosix() {
    }

    /** The loaded POSIX, or empty (logged once at debug level) where JNR cannot bind libc. */
    static Optional<POSIX> posix() {
        return Optional.ofNullable(Holder.POSIX);
    }

    private static final class Holder {
        static final POSIX POSIX = load();

        private static POSIX load() {
            // jffi's native memory access, not sun.misc.Unsafe's: JDK 24+ warns on stderr at Unsafe's first use
            // (JEP 498), which would break vdpactl's one-line errors; the CLI moves a few rlimit structs only
            System.setProperty("jffi.unsafe.disabled", "true");
            try {
                POSIX p = POSIXFactory.getNativePOSIX(new DefaultPOSIXHandler());
                return p.isNative() ? p : null;
            } catch (RuntimeException | LinkageError e) {
                LOG.debug("JNR-POSIX cannot bind the host's libc; host questions answer 'unknown'", e);
                return null;
            }
        }
    }
}
