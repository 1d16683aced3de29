package org.vdpactl.cli;

import java.io.PrintStream;

/**
 * {@code vdpactl --version} (or {@code -V}) alone: the one command line that needs no command model. Answered
 * before picocli loads (a picocli command line costs hundreds of classes and the reflection over every option),
 * printing what picocli prints for it ({@link VersionProvider}'s lines; CommandSelectionTest compares the two).
 */
final class VersionOnly {
    private VersionOnly() {
    }

    /** Prints the version and returns true when {@code args} is exactly {@code --version} or {@code -V}. */
    static boolean answer(String[] args, PrintStream out) {
        if (args.length != 1 || !(args[0].equals("--version") || args[0].equals("-V"))) {
            return false;
        }
        for (String line : new VersionProvider().getVersion()) {
            out.println(line);
        }
        out.flush();
        return true;
    }
}
