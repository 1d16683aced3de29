package org.vdpactl.fake.state;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.sys.InputFile;

/** Where the state's files are: the link target written through, and the temporaries of atomic saves. */
final class StateFilePaths {
    private static final Logger LOG = LoggerFactory.getLogger(StateFilePaths.class);
    /** The kernel's limit of links followed in one lookup (MAXSYMLINKS): more is a loop (ELOOP). */
    private static final int MAX_LINKS = 40;
    /** "fake-state.json.tmp-1234-89abcdef": the writer's pid, so that a later holder of the lock knows whether it died. */
    private static final Pattern TEMPORARY = Pattern.compile("\\.tmp-(\\d+)-[0-9a-f]+$");

    private StateFilePaths() {
    }

    /**
     * {@code file} with its last component's symbolic links followed, dangling or not. A save renames
     * a temporary file onto the state; onto a link, the rename would replace the link with a regular
     * file and the link's target would silently stop receiving changes. So every file of the state
     * (the temporaries, the lock, the open-nodes file) lives next to the link's target instead.
     *
     * @throws FakeStateStore.CorruptStateException when the links form a loop
     */
    static Path followLinks(Path file) {
        Path p = file;
        for (int i = 0; i <= MAX_LINKS; i++) {
            if (!Files.isSymbolicLink(p)) {
                return p;
            }
            try {
                p = p.resolveSibling(Files.readSymbolicLink(p));
            } catch (IOException e) {
                throw new FakeStateStore.CorruptStateException("fake kernel state " + file + " is a symbolic link that cannot be read: "
                        + InputFile.reason(e));
            }
        }
        throw new FakeStateStore.CorruptStateException("fake kernel state " + file
                + " cannot be used: Too many levels of symbolic links");
    }

    /** A new temporary file's name next to {@code target}, naming this process. */
    static Path temporaryFor(Path target) {
        return target.resolveSibling(target.getFileName() + ".tmp-" + ProcessHandle.current().pid() + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    }

    /**
     * Deletes the temporaries of {@code files} left by writers that died between creating and
     * renaming them (kill -9). Called under the lock, which every writer holds while its temporary
     * exists; a temporary of a live process is left alone all the same (and one without a pid,
     * written by an older vdpactl, too: nothing tells whether its writer lives).
     */
    static void removeStaleTemporaries(Path... files) {
        for (Path f : files) {
            String prefix = f.getFileName() + ".tmp-";
            try (DirectoryStream<Path> dir = Files.newDirectoryStream(f.getParent(), p -> p.getFileName().toString().startsWith(prefix))) {
                for (Path tmp : dir) {
                    Matcher m = TEMPORARY.matcher(tmp.getFileName().toString().substring(prefix.length() - 5));
                    if (m.matches() && !ProcessHandle.of(Long.parseLong(m.group(1))).map(ProcessHandle::isAlive).orElse(false)) {
                        Files.deleteIfExists(tmp);
                        LOG.debug("removed {}, left by a writer that died", tmp);
                    }
                }
            } catch (IOException | NumberFormatException e) {
                LOG.debug("could not look for stale temporaries of {}: {}", f, e.toString());
            }
        }
    }
}
