package org.vdpactl.sys;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Locale;

/**
 * The rules a vDPA device's name and provisioning must follow, in one place for everything that
 * makes or restores a device: {@code dev add}/{@code dev set} refuse input with them, and the fake
 * kernel's state file is validated with them on load, so a file cannot hold what the commands refuse.
 * Each method returns why a value is refused, as the end of a sentence, or null when it is fine.
 */
public final class VdpaDeviceRules {
    /** NAME_MAX: a sysfs directory name (/sys/bus/vdpa/devices/NAME) has at most 255 bytes. */
    public static final int MAX_NAME_BYTES = 255;
    public static final int MIN_MTU = 68;
    public static final int MAX_MTU = 65535;

    private VdpaDeviceRules() {
    }

    /**
     * Names the kernel would take but that cannot come back intact: the driver core turns '/' into
     * '!' (kobject_set_name_vargs), so "a/b" is listed as "a!b" and DEV_GET a/b finds nothing;
     * "." and ".." cannot be sysfs directories; whitespace and control characters break
     * `vdpa dev show` lines and shell use. The length counts bytes, as the kernel does; a name that
     * has no UTF-8 form (an unpaired surrogate) has no bytes to pass and is refused.
     */
    public static String nameProblem(String name) {
        if (name.isEmpty()) {
            return "must be 1 to " + MAX_NAME_BYTES + " bytes";
        }
        if (!StandardCharsets.UTF_8.newEncoder().canEncode(name)) {
            return "is not valid Unicode text (an unpaired surrogate), so it has no bytes to pass to the kernel";
        }
        int bytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_NAME_BYTES) {
            return "must be 1 to " + MAX_NAME_BYTES + " bytes (it has " + bytes + "): the kernel counts the bytes of UTF-8, not characters";
        }
        if (name.indexOf('\uFFFD') >= 0) {
            return "contains U+FFFD, the character a decoder puts where the bytes were not valid in the locale's charset:"
                    + " give the name as UTF-8 bytes";
        }
        if (name.indexOf('/') >= 0) {
            return "contains '/', which the kernel's driver core replaces with '!' (the device would be listed as \""
                    + name.replace('/', '!') + "\")";
        }
        if (name.equals(".") || name.equals("..")) {
            return "is not a possible sysfs directory name";
        }
        if (name.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            return "contains whitespace or a control character, which would break `vdpa dev show` output and sysfs paths";
        }
        int hidden = name.codePoints().filter(VdpaDeviceRules::invisible).findFirst().orElse(-1);
        if (hidden >= 0) {
            return "contains " + String.format(Locale.ROOT, "U+%04X", hidden) + ", a character that shows as nothing or"
                    + " reorders the text around it (zero-width, bidi control): the name would list like another one";
        }
        if (!composed(name)) {
            return "is not in Unicode's composed form (NFC): it would list exactly like its composed twin "
                    + quotedName(Normalizer.normalize(name, Normalizer.Form.NFC))
                    + ", which is other bytes to the kernel; give the composed form";
        }
        return null;
    }

    /**
     * Whether {@code s} is in Unicode's composed form (NFC). ASCII text is, as it is: the JDK's normaliser (its ICU
     * data read and its tables built at first use, some 40 classes) is asked only about text with other characters,
     * not at every start of a command that reads or lists device names.
     */
    public static boolean composed(String s) {
        return ascii(s) || Normalizer.isNormalized(s, Normalizer.Form.NFC);
    }

    /** {@code s} in Unicode's composed form (NFC): {@code s} itself when it is ASCII (see {@link #composed}). */
    public static String composedForm(String s) {
        return ascii(s) ? s : Normalizer.normalize(s, Normalizer.Form.NFC);
    }

    private static boolean ascii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** The net config space's MTU range (virtio-net: at least 68, a u16). */
    public static String mtuProblem(int mtu) {
        return mtu < MIN_MTU || mtu > MAX_MTU ? "is out of range (" + MIN_MTU + " to " + MAX_MTU + ")" : null;
    }

    /**
     * A net device's own address must be unicast and not zero (the kernel's is_valid_ether_addr):
     * a guest would never receive its frames otherwise.
     */
    public static String unicastMacProblem(byte[] mac) {
        boolean zero = true;
        boolean broadcast = true;
        for (byte b : mac) {
            zero &= b == 0;
            broadcast &= b == (byte) 0xFF;
        }
        if (zero) {
            return "is all zeros: a network device needs a unicast address";
        }
        if ((mac[0] & 1) != 0) {
            return "is a " + (broadcast ? "broadcast" : "multicast")
                    + " address (bit 0 of the first octet set): a network device needs a unicast address, like 02:00:00:00:00:07";
        }
        return null;
    }

    /** The most characters of a name a message shows: a name of a megabyte does not make a one-line message. */
    static final int QUOTED_MAX_CHARS = 80;

    /**
     * "device name \"a\\nb\"": a name quoted for a one-line message. Characters a terminal would not show as
     * themselves (controls, zero-width and bidi format characters) are written as escapes ("\\u200b"), so that
     * two names that look alike read differently; a name longer than {@link #QUOTED_MAX_CHARS} characters shows
     * its start and its length.
     */
    public static String quotedName(String name) {
        StringBuilder b = new StringBuilder("\"");
        int shown = 0;
        for (int i = 0; i < name.length() && shown < QUOTED_MAX_CHARS; ) {
            int cp = name.codePointAt(i);
            i += Character.charCount(cp);
            shown++;
            if (cp == '\n') {
                b.append("\\n");
            } else if (invisible(cp)) {
                b.append(String.format(Locale.ROOT, "\\u%04x", cp));
            } else {
                b.appendCodePoint(cp);
            }
        }
        b.append('"');
        int total = name.codePointCount(0, name.length());
        if (total > shown) {
            b.append("... (").append(total).append(" characters, ")
                    .append(name.getBytes(StandardCharsets.UTF_8).length).append(" bytes)");
        }
        return b.toString();
    }

    /** A character that shows as nothing or changes how others show: controls, format (zero-width, bidi), unassigned. */
    public static boolean invisible(int cp) {
        int type = Character.getType(cp);
        return type == Character.CONTROL || type == Character.FORMAT || type == Character.UNASSIGNED
                || type == Character.PRIVATE_USE || type == Character.SURROGATE;
    }
}
