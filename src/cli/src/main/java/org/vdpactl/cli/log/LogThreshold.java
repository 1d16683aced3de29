package org.vdpactl.cli.log;

import java.util.Locale;

import org.slf4j.event.Level;

/**
 * The one place that decides which log lines the CLI prints. It is read on every logging call, not
 * once when SLF4J starts: loggers are created (as static fields of command classes) before picocli has
 * parsed {@code --verbose}, and a level fixed at that moment is why {@code --verbose} once printed no
 * debug line. The starting level is INFO, or the system property {@code vdpactl.log.level} (the test
 * build sets WARN through it).
 */
public final class LogThreshold {
    /** The system property that sets the starting level (trace, debug, info, warn, error). */
    public static final String PROPERTY = "vdpactl.log.level";

    private static final Level CONFIGURED = configured();
    private static volatile Level threshold = CONFIGURED;

    private LogThreshold() {
    }

    /** {@code --verbose}: DEBUG from now on for every logger of this process; false goes back to the starting level. */
    public static void verbose(boolean on) {
        threshold = on && !CONFIGURED.equals(Level.TRACE) ? Level.DEBUG : CONFIGURED;
    }

    /** True when a line of {@code level} is printed. */
    static boolean enabled(Level level) {
        return level.toInt() >= threshold.toInt();
    }

    private static Level configured() {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.isBlank()) {
            return Level.INFO;
        }
        try {
            return Level.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return Level.INFO;
        }
    }
}
