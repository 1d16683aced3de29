package org.vdpactl.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a command may create for a state file named with --fake-state: the state's own directory (mode 0700, as the
 * default state's XDG directory is made), nothing above it. A missing chain above it is refused (NOT_FOUND, as any
 * missing path named on the command line): made silently, each level got mode 0700 and the caller's owner, so
 * {@code sudo vdpactl --fake-state /srv/lab/x/s.json} left a /srv/lab only root could enter, and a typo in a
 * directory name became a tree nobody asked for. Creating with the user's umask instead would still make the typo's
 * tree; the default state ({@code $XDG_STATE_HOME/vdpactl}) keeps its whole chain, as the XDG specification asks.
 */
final class StateDirectoryRule {
    private StateDirectoryRule() {
    }

    /** Refuses {@code stateFile} when the directory that would hold its directory does not exist. */
    static void refuseMissingParents(Path stateFile) {
        Path dir = stateFile.toAbsolutePath().normalize().getParent();
        if (dir == null || Files.isDirectory(dir)) {
            return;
        }
        Path above = dir.getParent();
        if (above != null && !Files.isDirectory(above)) {
            throw new CliFailure(ExitCode.NOT_FOUND, "--fake-state " + stateFile + ": the directory " + above
                    + " does not exist; vdpactl creates only the state's own directory (" + dir.getFileName()
                    + "): create the directories above it first, or name a state file in an existing directory");
        }
    }
}
