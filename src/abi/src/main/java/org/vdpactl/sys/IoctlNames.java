package org.vdpactl.sys;

import java.util.function.LongFunction;

/**
 * Names ioctl commands in the seam's error texts. The seam sits below the layers that know the
 * commands, so whoever builds a {@link PanamaSyscalls} hands it the table to use (the CLI passes
 * the vhost layer's); there is no global slot, so a text does not depend on which class happened
 * to be loaded first. Without a table a command reads as its number.
 */
public final class IoctlNames {
    /** Names no command: every one reads as "ioctl 0x…". */
    public static final IoctlNames NUMERIC = new IoctlNames(code -> null);

    private final LongFunction<String> table;

    /** @param table the name of a known command (its 32-bit code), or null for an unknown one */
    public IoctlNames(LongFunction<String> table) {
        this.table = table;
    }

    /** "ioctl VHOST_VDPA_SUSPEND" for a command the table knows, else "ioctl 0x0000AF7D". */
    public String name(long request) {
        String n = table.apply(request & 0xFFFF_FFFFL);
        return n != null ? "ioctl " + n : describe(request);
    }

    /** "ioctl 0x0000AF7D": a command by its number alone. */
    public static String describe(long request) {
        return "ioctl " + String.format("0x%08X", request & 0xFFFF_FFFFL);
    }
}
