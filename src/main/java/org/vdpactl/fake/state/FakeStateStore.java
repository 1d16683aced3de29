package org.vdpactl.fake.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The fake kernel's persistent state for the CLI: one JSON file (default
 * {@code $XDG_STATE_HOME/vdpactl/fake-state.json}, i.e. {@code ~/.local/state/vdpactl/} when unset)
 * holding the {@link Inventory}. A {@link Session} holds an exclusive lock on the sibling
 * {@code .lock} file for as long as a kernel uses the state, so concurrent vdpactl invocations
 * queue up; a second process waits a bounded time and then fails with {@link StateLockedException}.
 * Saves are atomic (temporary file + rename) and the file is mode 0600.
 */
public final class FakeStateStore {
    /** Format version written to the file. */
    public static final int VERSION = 1;
    /** How long a second process waits for the lock by default. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");

    private final Path file;
    private final Duration lockTimeout;

    /**
     * The on-disk form. {@code kernel} is the fake kernel version ("6.1", "6.12", "7.2"); absent in
     * files written before kernel profiles existed, which therefore stay 6.12.
     */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    record StateFile(int version, List<Inventory.Mgmt> mgmtdevs, List<Inventory.Device> devices, String kernel) {
    }

    public FakeStateStore(Path file) {
        this(file, DEFAULT_LOCK_TIMEOUT);
    }

    public FakeStateStore(Path file, Duration lockTimeout) {
        this.file = file.toAbsolutePath();
        this.lockTimeout = lockTimeout;
    }

    /** {@code $XDG_STATE_HOME/vdpactl/fake-state.json}, falling back to {@code ~/.local/state}. */
    public static Path defaultStateFile() {
        String xdg = System.getenv("XDG_STATE_HOME");
        Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()
                ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".local", "state");
        return base.resolve("vdpactl").resolve("fake-state.json");
    }

    public Path file() {
        return file;
    }

    /** Locks the state (waiting up to the timeout) and reads it; a missing file yields the default inventory. */
    public Session open() {
        createParent();
        Path lockPath = file.resolveSibling(file.getFileName() + ".lock");
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockPath, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                    posix() ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE_MODE)} : new FileAttribute<?>[0]);
            FileLock lock = acquire(channel, lockPath);
            Session s = new Session(channel, lock);
            try {
                StateFile f = readFile();
                s.inventory = f == null ? Inventory.defaults() : new Inventory(f.mgmtdevs(), f.devices());
                s.kernelVersion = f == null ? null : f.kernel();
            } catch (RuntimeException e) {
                s.close();
                throw e;
            }
            return s;
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock fake state " + lockPath + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            if (channel != null && channel.isOpen()) {
                closeQuietly(channel);
            }
            throw e;
        }
    }

    private FileLock acquire(FileChannel channel, Path lockPath) throws IOException {
        long deadline = System.nanoTime() + lockTimeout.toNanos();
        while (true) {
            try {
                FileLock l = channel.tryLock();
                if (l != null) {
                    return l;
                }
            } catch (OverlappingFileLockException e) {
                // held by another kernel of this JVM: wait like another process would
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new StateLockedException("fake kernel state " + file + " is in use by another vdpactl process"
                        + " (lock " + lockPath + " held for more than " + lockTimeout.toSeconds() + " s)");
            }
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
        }
    }

    /** Reads the file without locking (diagnostics); a missing file yields the default inventory. */
    public Inventory read() {
        StateFile s = readFile();
        return s == null ? Inventory.defaults() : new Inventory(s.mgmtdevs(), s.devices());
    }

    /** The parsed file, or null when there is none. */
    private StateFile readFile() {
        if (!Files.exists(file)) {
            return null;
        }
        try {
            StateFile s = JSON.readValue(file.toFile(), StateFile.class);
            if (s == null || s.version() != VERSION) {
                throw new CorruptStateException("fake kernel state " + file + " has "
                        + (s == null ? "no content" : "unsupported version " + s.version())
                        + "; delete it to start from the default devices");
            }
            return s;
        } catch (JacksonException e) {
            throw new CorruptStateException("fake kernel state " + file + " is corrupt (" + e.getOriginalMessage()
                    + "); delete it to start from the default devices");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read fake kernel state " + file + ": " + e.getMessage(), e);
        }
    }

    private void write(Inventory inventory, String kernelVersion) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        try {
            byte[] bytes = JSON.writeValueAsBytes(new StateFile(VERSION, inventory.mgmtdevs(), inventory.devices(), kernelVersion));
            if (posix()) {
                Files.createFile(tmp, PosixFilePermissions.asFileAttribute(FILE_MODE));
            }
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(java.nio.ByteBuffer.wrap(bytes));
                ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the original error matters more
            }
            throw new UncheckedIOException("cannot save fake kernel state " + file + ": " + e.getMessage(), e);
        }
    }

    private void createParent() {
        Path dir = file.getParent();
        try {
            if (!Files.isDirectory(dir)) {
                if (posix()) {
                    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIR_MODE));
                } else {
                    Files.createDirectories(dir);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    private static void closeQuietly(FileChannel c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // nothing to do
            }
        }
    }

    /** The locked state of one kernel's lifetime. */
    public final class Session implements AutoCloseable {
        private final FileChannel channel;
        private final FileLock lock;
        private Inventory inventory;
        private String kernelVersion;

        private Session(FileChannel channel, FileLock lock) {
            this.channel = channel;
            this.lock = lock;
        }

        /** The state as loaded. */
        public Inventory inventory() {
            return inventory;
        }

        /** The kernel version the file recorded, if any. */
        public java.util.Optional<String> kernelVersion() {
            return java.util.Optional.ofNullable(kernelVersion);
        }

        /** The kernel version the next {@link #save} records. */
        public void setKernelVersion(String version) {
            this.kernelVersion = version;
        }

        /** Writes the state atomically (the lock is still held). */
        public void save(Inventory newInventory) {
            if (!lock.isValid()) {
                throw new IllegalStateException("fake state session already closed");
            }
            write(newInventory, kernelVersion);
            inventory = newInventory;
        }

        /** Releases the lock. */
        @Override
        public void close() {
            try {
                if (lock.isValid()) {
                    lock.release();
                }
            } catch (IOException ignored) {
                // closing the channel releases it anyway
            } finally {
                closeQuietly(channel);
            }
        }
    }

    /** Another process holds the state longer than the lock timeout. */
    public static final class StateLockedException extends RuntimeException {
        public StateLockedException(String message) {
            super(message);
        }
    }

    /** The state file cannot be used; the message is one line telling what to do. */
    public static final class CorruptStateException extends RuntimeException {
        public CorruptStateException(String message) {
            super(message);
        }
    }
}
