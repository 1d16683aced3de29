package org.vdpactl.sys;

/**
 * Names ioctl commands in error messages. The seam sits below the vhost layer, so the vhost layer
 * registers its table here at class-init time instead of the seam depending on it.
 */
public final class IoctlNames {
    private static volatile java.util.function.LongFunction<String> namer = code -> null;

    private IoctlNames() {
    }

    /** Installs the function that names known commands (returns null for unknown ones). */
    public static void register(java.util.function.LongFunction<String> newNamer) {
        namer = newNamer;
    }

    /** "ioctl VHOST_VDPA_SUSPEND" or "ioctl 0x0000AF7D". */
    public static String describe(long request) {
        String n = namer.apply(request);
        return "ioctl " + (n != null ? n : String.format("0x%08X", request & 0xFFFF_FFFFL));
    }
}
