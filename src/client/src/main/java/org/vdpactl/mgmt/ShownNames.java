package org.vdpactl.mgmt;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.vdpactl.sys.VdpaDeviceRules;

/**
 * Device names as the text output shows them. The kernel takes any bytes as a name (vdpa.c passes
 * VDPA_ATTR_DEV_NAME, an NLA_STRING without a length bound, to dev_set_name("%s")), so a device another tool made
 * may be called "vdpa\u200b0" or "cafe\u0301": printed as they are, they read as "vdpa0" and "café". vdpactl
 * refuses to create such names ({@link VdpaDeviceRules#nameProblem}) but lists what the kernel has: the text
 * output escapes what would not show as itself, so that two different names never print alike; the JSON output
 * keeps the name's characters, which is what a program compares.
 *
 * <p>Escapes: a character that shows as nothing or reorders the text (controls, zero-width, bidi, unassigned,
 * {@link VdpaDeviceRules#invisible}) is written {@code \\uXXXX} ({@code \\UXXXXXXXX} above U+FFFF); in a name not in
 * Unicode's composed form (NFC) every non-ASCII character is, since its decomposed letters look like the composed
 * ones of its twin; a backslash that an escape could be read into (before {@code u}, {@code U}, a backslash or an
 * escape) is doubled. Every other name, the usual ones, prints as it is.
 */
public final class ShownNames {
    private ShownNames() {
    }

    /** {@code name} as the text output shows it (see the class comment); the name itself when nothing needs escaping. */
    public static String text(String name) {
        boolean decomposed = !VdpaDeviceRules.composed(name);
        int[] cps = name.codePoints().toArray();
        boolean[] escaped = new boolean[cps.length];
        boolean any = false;
        for (int i = 0; i < cps.length; i++) {
            escaped[i] = VdpaDeviceRules.invisible(cps[i]) || (decomposed && cps[i] > 0x7F);
            any |= escaped[i];
        }
        if (!any && name.indexOf('\\') < 0) {
            return name;
        }
        StringBuilder b = new StringBuilder(name.length() + 8);
        for (int i = 0; i < cps.length; i++) {
            int cp = cps[i];
            if (escaped[i]) {
                b.append(cp > 0xFFFF ? String.format(Locale.ROOT, "\\U%08x", cp) : String.format(Locale.ROOT, "\\u%04x", cp));
            } else if (cp == '\\' && i + 1 < cps.length && (escaped[i + 1] || cps[i + 1] == 'u' || cps[i + 1] == 'U' || cps[i + 1] == '\\')) {
                b.append("\\\\");
            } else {
                b.appendCodePoint(cp);
            }
        }
        return b.toString();
    }

    /**
     * One warning line per group of names that are different bytes but the same text in Unicode's composed form
     * (an NFC name and its NFD twin): they look alike wherever a terminal composes them.
     */
    public static List<String> twinWarnings(List<String> names) {
        Map<String, List<String>> byComposed = new LinkedHashMap<>();
        for (String n : names) {
            List<String> same = byComposed.computeIfAbsent(VdpaDeviceRules.composedForm(n), k -> new ArrayList<>());
            if (!same.contains(n)) {
                same.add(n);
            }
        }
        List<String> out = new ArrayList<>();
        for (List<String> same : byComposed.values()) {
            if (same.size() > 1) {
                out.add("devices " + String.join(" and ", same.stream().map(n -> "\"" + text(n) + "\"").toList())
                        + " are different names that look alike (the same letters composed and decomposed, Unicode NFC"
                        + " and NFD): name the one you mean by the form shown");
            }
        }
        return out;
    }
}
