package org.vdpactl.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;

/**
 * A directory in which new files cannot be created while existing ones stay writable: mode 0500
 * for an ordinary user; for root, who ignores modes, the immutable attribute (chattr +i), which
 * refuses with EPERM instead of EACCES.
 */
record UnwritableDirectory(Path dir, Set<PosixFilePermission> before, boolean immutable) implements AutoCloseable {

    static UnwritableDirectory of(Path dir) throws IOException, InterruptedException {
        Set<PosixFilePermission> before = Files.getPosixFilePermissions(dir);
        if (!"root".equals(System.getProperty("user.name"))) {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-x------"));
            return new UnwritableDirectory(dir, before, false);
        }
        int rc = new ProcessBuilder("chattr", "+i", dir.toString()).inheritIO().start().waitFor();
        Assumptions.assumeTrue(rc == 0, "root without chattr +i on this file system: cannot make a directory unwritable");
        return new UnwritableDirectory(dir, before, true);
    }

    /** What the operating system says when a file is created in it. */
    String reason() {
        return immutable ? "Operation not permitted" : "Permission denied";
    }

    @Override
    public void close() throws IOException {
        if (immutable) {
            try {
                new ProcessBuilder("chattr", "-i", dir.toString()).inheritIO().start().waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else {
            Files.setPosixFilePermissions(dir, before);
        }
    }
}
