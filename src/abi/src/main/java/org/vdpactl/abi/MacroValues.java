package org.vdpactl.abi;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * Resolves kernel macro names used in the profile data ("VIRTIO_NET_F_MAC", "VDPA_ATTR_DEV_NET_CFG_MTU",
 * "VHOST_BACKEND_F_SUSPEND") to their values through the generated bindings, so profiles are readable
 * and no number is typed twice.
 */
public final class MacroValues {
    private static final Map<String, Integer> CACHE = new ConcurrentHashMap<>();

    private MacroValues() {
    }

    /** The value of a macro of linux/vhost.h, linux/vdpa.h, linux/virtio_*.h. */
    public static int value(String macro) {
        return CACHE.computeIfAbsent(macro, MacroValues::lookup);
    }

    /** The value of a macro, or -1 when the headers have none of that name. */
    public static int valueOrMinusOne(String macro) {
        try {
            return value(macro);
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }

    private static int lookup(String macro) {
        try {
            Method m = vhost_h.class.getMethod(macro);
            if (!Modifier.isStatic(m.getModifiers()) || m.getReturnType() != int.class) {
                throw new IllegalArgumentException("not an int macro: " + macro);
            }
            return (int) m.invoke(null);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("unknown kernel macro " + macro);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read macro " + macro, e);
        }
    }

    /**
     * A 64-bit mask from a list whose items are either macro names of bit numbers
     * ("VIRTIO_F_VERSION_1") or numbers ("0x308007646").
     */
    public static long bitMask(List<String> items) {
        long mask = 0;
        if (items == null) {
            return 0;
        }
        for (String item : items) {
            String s = item.trim();
            if (s.startsWith("0x") || s.startsWith("0X")) {
                mask |= Long.parseUnsignedLong(s.substring(2), 16);
            } else if (!s.isEmpty() && Character.isDigit(s.charAt(0))) {
                mask |= Long.parseUnsignedLong(s);
            } else {
                mask |= 1L << value(s);
            }
        }
        return mask;
    }

    /** Parses "0x…" or decimal as an unsigned 64-bit number. */
    public static long unsigned(String s) {
        String t = s.trim();
        return t.startsWith("0x") || t.startsWith("0X") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseUnsignedLong(t);
    }
}
