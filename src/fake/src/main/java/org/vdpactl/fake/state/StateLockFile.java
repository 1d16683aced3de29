package org.vdpactl.fake.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The one descriptor a JVM keeps on a state lock file while any of its threads holds or waits for
 * the lock.
 *
 * <p>{@link FileChannel#lock} takes an fcntl record lock, and such a lock belongs to the process:
 * closing any descriptor of the file, even one opened only to read it, releases every lock the
 * process holds on it (fcntl(2), "Advisory record locking"; docs/fake-kernel.md). A waiter that
 * read who holds the lock with its own open and close therefore dropped the lock of another thread
 * of its JVM, or its own
 * lock just granted while its watchdog was reading; another process then got the lock as well and
 * one of two concurrent changes was lost. So the file is opened once per JVM, read and written
 * through that descriptor only (positional reads, which close nothing), and closed when the last
 * thread that holds or waits for the lock is done, when nothing in this JVM holds it.
 */
final class StateLockFile {
    /** Guarded by itself. */
    private static final Map<Path, StateLockFile> OPEN = new HashMap<>();
    private static final int MAX_CONTENT = 4096;

    private final Path path;
    private final FileAttribute<?>[] attributes;
    private FileChannel channel;
    private int users;

    private StateLockFile(Path path, FileAttribute<?>[] attributes) {
        this.path = path;
        this.attributes = attributes;
    }

    /** This JVM's descriptor of {@code path}, opened (and created with {@code attributes}) when it has none; pair with {@link #release}. */
    static StateLockFile use(Path path, FileAttribute<?>[] attributes) throws IOException {
        synchronized (OPEN) {
            StateLockFile f = OPEN.get(path);
            if (f == null) {
                f = new StateLockFile(path, attributes);
                f.channel(); // opens it, or fails here before it is shared
                OPEN.put(path, f);
            }
            f.users++;
            return f;
        }
    }

    /** The descriptor. A channel closed under an interrupted {@code lock()} (a waiter that gave up) is opened again: nothing held a lock through it then, since the threads of one JVM take the lock one at a time. */
    FileChannel channel() throws IOException {
        synchronized (OPEN) {
            if (channel == null || !channel.isOpen()) {
                channel = FileChannel.open(path, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.READ), attributes);
            }
            return channel;
        }
    }

    /** What the holder wrote into the file, stripped; "" when it is empty or cannot be read. */
    String content() {
        try {
            FileChannel c = channel();
            ByteBuffer b = ByteBuffer.allocate(MAX_CONTENT);
            while (b.hasRemaining() && c.read(b, b.position()) > 0) {
                // positional reads: the descriptor stays open and its position untouched
            }
            return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "";
        }
    }

    /** This thread no longer holds or waits for the lock; the last one closes the descriptor. */
    void release() {
        synchronized (OPEN) {
            if (--users > 0) {
                return;
            }
            OPEN.remove(path);
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // the descriptor is gone either way
                }
            }
        }
    }

    /** Whether this JVM has a descriptor of {@code path} open (tests: not once every session on it is closed). */
    static boolean isOpen(Path path) {
        synchronized (OPEN) {
            return OPEN.containsKey(path);
        }
    }
}
