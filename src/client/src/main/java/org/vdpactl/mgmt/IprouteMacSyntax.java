package org.vdpactl.mgmt;

import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * Reads a MAC address the way iproute2's {@code vdpa dev add ... mac X} does (vdpa_argv_mac ->
 * ll_addr_a2n), producing the same six bytes it sends: one to six ':'-separated hex groups, or a
 * dotted IPv4 address whose four bytes fill the front; what the parser did not fill stays zero.
 * It refuses, on purpose, the inputs iproute2 takes only because sscanf("%x") ignores what follows
 * the digits or skips blanks and signs: those are typos, not addresses (docs/spec/iproute2-mac.md).
 */
public final class IprouteMacSyntax {
    /** sscanf("%x") reads an optional 0x prefix and hex digits; we take only that, nothing after. */
    private static final Pattern HEX_GROUP = Pattern.compile("(?:0[xX])?[0-9a-fA-F]+");
    /** strtoul(..., 0) as get_addr_ipv4 uses it: hex with 0x, octal with a leading 0, else decimal. */
    private static final Pattern IPV4_PART = Pattern.compile("0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*");
    private static final int IPV4_LENGTH = 4;

    private IprouteMacSyntax() {
    }

    /**
     * A parsed address and, when the text was in a form that can hide a typo (fewer than six
     * groups, the dotted form, a group of one digit or of three or more characters), why; else null.
     */
    public record Reading(MacAddress address, String unusualForm) {
    }

    public static Reading read(String text) {
        if (text.indexOf('.') >= 0) {
            return new Reading(dotted(text), "dotted IPv4 form: its 4 bytes, then zeros");
        }
        String[] groups = text.split(":", -1);
        if (groups.length > MacAddress.LENGTH) {
            throw refused(text, "more than six groups (iproute2 drops the seventh silently)");
        }
        byte[] b = new byte[MacAddress.LENGTH];
        boolean longGroup = false;
        boolean shortGroup = false;
        for (int i = 0; i < groups.length; i++) {
            String g = groups[i];
            if (!HEX_GROUP.matcher(g).matches()) {
                throw refused(text, g.isEmpty() ? "an empty group" : "group \"" + g + "\" is not a hex number"
                        + (g.indexOf('-') >= 0 ? " ('-' is not a separator for iproute2's vdpa: use ':')" : ""));
            }
            int value = groupValue(g);
            if (value > 0xff) {
                throw refused(text, "group \"" + g + "\" is above ff");
            }
            b[i] = (byte) value;
            longGroup |= g.length() > 2;
            shortGroup |= g.length() == 1;
        }
        String unusual = null;
        if (groups.length < MacAddress.LENGTH) {
            unusual = groups.length + " of 6 groups: the rest are zero";
        } else if (longGroup) {
            unusual = "a group of three or more characters";
        } else if (shortGroup) {
            // "02:00:00:00:00:0" is 02:00:00:00:00:00: a digit left out reads as a leading zero, as sscanf reads it
            unusual = "a group of one digit, read as 0X";
        }
        return new Reading(MacAddress.of(b), unusual);
    }

    private static int groupValue(String g) {
        String digits = g.length() > 2 && (g.charAt(1) == 'x' || g.charAt(1) == 'X') ? g.substring(2) : g;
        digits = digits.replaceFirst("^0+(?=.)", "");
        return digits.length() > 2 ? Integer.MAX_VALUE : Integer.parseInt(digits, 16);
    }

    private static MacAddress dotted(String text) {
        if (text.indexOf(':') >= 0) {
            throw refused(text, "mixes '.' and ':'");
        }
        String[] parts = text.split("\\.", -1);
        if (parts.length > IPV4_LENGTH) {
            throw refused(text, "a dotted address has at most four parts");
        }
        byte[] b = new byte[MacAddress.LENGTH];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (!IPV4_PART.matcher(p).matches()) {
                throw refused(text, p.isEmpty() ? "an empty part" : "part \"" + p + "\" is not a number");
            }
            int value = ipv4PartValue(p);
            if (value > 0xff) {
                throw refused(text, "part \"" + p + "\" is above 255");
            }
            b[i] = (byte) value;
        }
        return MacAddress.of(b);
    }

    private static int ipv4PartValue(String p) {
        BigInteger v;
        if (p.startsWith("0x") || p.startsWith("0X")) {
            v = new BigInteger(p.substring(2), 16);
        } else if (p.length() > 1 && p.charAt(0) == '0') {
            v = new BigInteger(p.substring(1), 8);
        } else {
            v = new BigInteger(p);
        }
        return v.bitLength() > 16 ? Integer.MAX_VALUE : v.intValue();
    }

    private static IllegalArgumentException refused(String text, String why) {
        return new IllegalArgumentException("not a MAC address: \"" + text + "\": " + why
                + " (expected six hex groups like 02:00:00:00:00:01)");
    }
}
