package org.vdpactl.cli;

import java.util.Locale;

/** Byte sizes on the command line: "4096", "4K", "2M", "256G", "1T" (binary units). */
public final class Sizes {
    private Sizes() {
    }

    /** Parses a size; throws IllegalArgumentException (a usage error) naming the option. */
    public static long parse(String text, String option) {
        String s = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
        if (s.endsWith("IB")) {
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("B") && s.length() > 1 && !Character.isDigit(s.charAt(s.length() - 2))) {
            s = s.substring(0, s.length() - 1);
        }
        int shift = 0;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'K' -> shift = 10;
                case 'M' -> shift = 20;
                case 'G' -> shift = 30;
                case 'T' -> shift = 40;
                default -> shift = 0;
            }
        }
        String digits = shift == 0 ? s : s.substring(0, s.length() - 1);
        if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit) || digits.length() > 18) {
            throw new IllegalArgumentException(option + ": '" + text + "' is not a size (examples: 4096, 4K, 2M, 256G)");
        }
        long v = Long.parseLong(digits);
        if (v <= 0) {
            throw new IllegalArgumentException(option + ": size must be positive, got '" + text + "'");
        }
        if (Long.numberOfLeadingZeros(v) <= shift) {
            throw new IllegalArgumentException(option + ": '" + text + "' is too large");
        }
        return v << shift;
    }

    /** "256 GiB", "4 KiB", "1536 MiB". */
    public static String format(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        long v = bytes;
        while (u < units.length - 1 && v >= 1024 && v % 1024 == 0) {
            v /= 1024;
            u++;
        }
        return v + " " + units[u];
    }
}
