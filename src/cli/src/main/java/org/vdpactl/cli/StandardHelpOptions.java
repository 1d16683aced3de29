package org.vdpactl.cli;

/**
 * The holder of picocli's standard help options ({@code -h}/{@code --help}, {@code -V}/{@code --version}), which
 * {@code @Command(mixinStandardHelpOptions = true)} mixes into a command. picocli's own holder
 * ({@code CommandLine.AutoHelpMixin}) is not ours to reach: {@link CommandSpecs} gives this one the options and the
 * annotation values that picocli's has (read from it at build time), and {@link CommandModel#finish} adds it as
 * picocli would.
 */
final class StandardHelpOptions {
    /** The name picocli gives this mixin. */
    static final String KEY = "mixinStandardHelpOptions";

    boolean helpRequested;
    boolean versionRequested;
}
