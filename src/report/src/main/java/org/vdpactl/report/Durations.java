package org.vdpactl.report;

import java.util.Locale;

/** How every report prints a time: milliseconds with two decimals ("2.54"). */
public final class Durations {
    private Durations() {
    }

    /** {@code nanos} as milliseconds, two decimals. */
    public static String ms(long nanos) {
        return ms(nanos / 1e6);
    }

    public static String ms(double millis) {
        return String.format(Locale.ROOT, "%.2f", millis);
    }

    /** Nanoseconds to (unrounded) milliseconds for JSON. */
    public static double millis(long nanos) {
        return nanos / 1e6;
    }
}
