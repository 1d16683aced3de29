package org.vdpactl;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's root for tests that read its documents and sources, wherever Maven runs them from (a module). */
public final class RepositoryRoot {
    private RepositoryRoot() {
    }

    /** The nearest directory at or above the working directory that holds README.md and scripts/. */
    public static Path find() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("scripts"))) {
                return p;
            }
        }
        throw new AssertionError("no repository root (README.md and scripts/) at or above " + Path.of("").toAbsolutePath());
    }
}
