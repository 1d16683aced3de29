package org.vdpactl.fake.state;

import java.io.IOException;
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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The fake kernel's persistent state for the CLI: one JSON file (default
 * {@code $XDG_STATE_HOME/vdpactl/fake-state.json}, i.e. {@code ~/.local/state/vdpactl/} when unset)
 * holding the {@link Inventory}.
 *
 * <p>Saves are atomic (temporary file + rename, mode 0600), so {@link #load()} reads without any
 * lock and read-only commands never wait and never write. Changes go through {@link #update}: it
 * holds an exclusive lock on the sibling {@code .lock} file only around the read-modify-write, so
 * parallel invocations (Ansible forks, CI shards) queue for a few milliseconds each, not for each
 * other's whole run. Waiters queue fairly (a fair semaphore inside one JVM, the kernel's blocking
 * fcntl lock between processes), say once that they wait and for which process, and give up only
 * when one holder keeps the lock longer than the timeout: a long queue that moves never fails.
 */
public final class FakeStateStore {
    /** Format version written to the file. */
    public static final int VERSION = 1;
    /** How long one holder may keep the lock before a waiter gives up. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(FakeStateStore.class);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    /** Threads of one JVM queue here first: file locks are per process, and the JVM refuses overlapping ones. */
    private static final Map<Path, Semaphore> IN_PROCESS_QUEUES = new ConcurrentHashMap<>();
    private static final long POLL_NANOS = Duration.ofMillis(100).toNanos();

    private final Path file;
    private final Duration lockTimeout;

    /**
     * The on-disk form. {@code kernel} is the fake kernel version ("6.1", "6.12", "7.2"); absent in
     * files written before kernel profiles existed, which therefore stay 6.12.
     */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
    record StateFile(int version, List<Inventory.Mgmt> mgmtdevs, List<Inventory.Device> devices, String kernel,
                     List<NodeOpenRecord> openNodes, List<NodeRuleRecord> nodeRules, Map<String, Map<String, Long>> vstats) {
    }

    /** The kernel version the file recorded when last read, or the one the next save records. */
    private volatile String kernelVersion;

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

    /** The kernel version the state file recorded (as of the last read), if any. */
    public java.util.Optional<String> kernelVersion() {
        return java.util.Optional.ofNullable(kernelVersion);
    }

    /** The kernel version the next save records. */
    public void setKernelVersion(String version) {
        this.kernelVersion = version;
    }

    /** The state as saved last (no lock: saves are atomic renames); a missing file yields the default inventory. */
    public Inventory load() {
        return read();
    }

    /**
     * Read-modify-write under the lock: reads the file, applies {@code change} and saves the result
     * when it differs. Returns what is saved now.
     *
     * @throws StateLockedException when one holder keeps the lock longer than the timeout
     * @throws StateIoException     when the lock or the file cannot be written (permission, disk)
     */
    public Inventory update(UnaryOperator<Inventory> change) {
        return updateState(s -> s.withInventory(change.apply(s.inventory()))).inventory();
    }

    /**
     * {@link #update} of the whole state (inventory, open nodes, node rules, counters); what belongs
     * to a device that is no longer in the inventory is dropped. Returns what is saved now.
     */
    public SharedState updateState(UnaryOperator<SharedState> change) {
        try (Session s = open()) {
            SharedState next = change.apply(s.state()).pruned();
            if (!next.equals(s.state())) {
                s.save(next);
            }
            return next;
        }
    }

    /** The whole state as saved last (no lock); a missing file yields the default inventory and nothing else. */
    public SharedState loadState() {
        return readState();
    }

    /** Locks the state (queueing fairly) and reads it; the lock is held until the session is closed. */
    public Session open() {
        createParent();
        Path lockPath = file.resolveSibling(file.getFileName() + ".lock");
        StateLockFile lockFile;
        try {
            lockFile = StateLockFile.use(lockPath,
                    posix() ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE_MODE)} : new FileAttribute<?>[0]);
        } catch (IOException e) {
            throw StateIoException.of("cannot lock the fake kernel state: " + lockPath, e);
        }
        Semaphore queue = IN_PROCESS_QUEUES.computeIfAbsent(lockPath, k -> new Semaphore(1, true));
        LockWait wait = new LockWait(lockPath, lockFile);
        try {
            while (!queue.tryAcquire(POLL_NANOS, TimeUnit.NANOSECONDS)) {
                wait.check();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            lockFile.release();
            throw new StateLockedException("interrupted while waiting for the fake kernel state lock " + lockPath);
        } catch (RuntimeException e) {
            lockFile.release();
            throw e;
        }
        Session s = null;
        try {
            FileChannel channel = lockFile.channel();
            FileLock lock = acquire(channel, wait);
            s = new Session(lockFile, lock, queue);
            announceHolder(channel);
            s.state = readState();
            return s;
        } catch (IOException | RuntimeException e) {
            if (s != null) {
                s.close();
            } else {
                queue.release();
                lockFile.release();
            }
            if (e instanceof IOException io) {
                throw StateIoException.of("cannot lock the fake kernel state: " + lockPath, io);
            }
            throw (RuntimeException) e;
        }
    }

    /**
     * Takes the file lock: at once when free, else blocked in the kernel's queue (fcntl F_SETLKW)
     * while a watchdog gives up when one holder keeps it longer than the timeout.
     */
    private FileLock acquire(FileChannel channel, LockWait wait) throws IOException {
        FileLock l = channel.tryLock();
        if (l != null) {
            return l;
        }
        wait.check();
        Thread waiter = Thread.currentThread();
        AtomicBoolean done = new AtomicBoolean();
        AtomicBoolean timedOut = new AtomicBoolean();
        Thread watchdog = Thread.ofPlatform().daemon().name("vdpactl-state-lock-watchdog").start(() -> {
            while (!done.get()) {
                LockSupport.parkNanos(POLL_NANOS);
                if (!done.get() && wait.expired()) {
                    timedOut.set(true);
                    waiter.interrupt();
                    return;
                }
            }
        });
        try {
            return channel.lock();
        } catch (java.nio.channels.ClosedByInterruptException | java.nio.channels.FileLockInterruptionException e) {
            // which of the two an interrupted lock() throws depends on where the interrupt lands
            Thread.interrupted(); // our watchdog's interrupt, not the caller's
            if (timedOut.get()) {
                throw wait.lockedException();
            }
            throw e;
        } finally {
            done.set(true);
            LockSupport.unpark(watchdog);
            try {
                watchdog.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (timedOut.get()) {
                Thread.interrupted();
            }
        }
    }

    /** Writes who holds the lock into the lock file, so a waiter can say whom it waits for. */
    private static void announceHolder(FileChannel channel) throws IOException {
        String holder = "pid " + ProcessHandle.current().pid() + " (" + HolderInfo.commandOf(ProcessHandle.current())
                + ") thread " + Thread.currentThread().threadId() + " at " + System.nanoTime() + "\n";
        channel.truncate(0);
        channel.write(java.nio.ByteBuffer.wrap(holder.getBytes(java.nio.charset.StandardCharsets.UTF_8)), 0);
    }

    /**
     * One waiter's view of the queue: says once that it waits and for whom, and restarts its
     * deadline each time the holder changes (the queue moved).
     */
    /** CPU a holder must have used since the last look to count as working rather than stuck. */
    private static final long WORKING_CPU_NANOS = 100_000_000L;
    private static final int MAX_TIMEOUTS_PER_HOLDER = 12;

    private final class LockWait {
        private final Path lockPath;
        private final StateLockFile lockFile;
        private String holder;
        private long deadline;
        private long holderCpu = -1;
        private long holderSince = System.nanoTime();
        private boolean announced;

        LockWait(Path lockPath, StateLockFile lockFile) {
            this.lockPath = lockPath;
            this.lockFile = lockFile;
            this.deadline = System.nanoTime() + lockTimeout.toNanos();
        }

        synchronized void check() {
            if (queueMoved()) {
                deadline = System.nanoTime() + lockTimeout.toNanos();
            }
            if (!announced) {
                announced = true;
                LOG.warn("waiting for the fake kernel state lock {} held by {}", lockPath, HolderInfo.describe(holder));
            }
            if (System.nanoTime() - deadline >= 0) {
                throw lockedException();
            }
        }

        synchronized boolean expired() {
            if (queueMoved()) {
                deadline = System.nanoTime() + lockTimeout.toNanos();
                return false;
            }
            return System.nanoTime() - deadline >= 0;
        }

        /**
         * Whether the wait made progress since the deadline was last set: another holder, or the same
         * holder process used at least {@link #WORKING_CPU_NANOS} of CPU (it is working, only slowly,
         * as 64 JVMs on 2 CPUs are; an idle JVM uses less). Only a holder that neither changes nor
         * works for the whole timeout counts as stuck, and none is waited for longer than
         * {@link #MAX_TIMEOUTS_PER_HOLDER} timeouts.
         */
        private boolean queueMoved() {
            String now = lockFile.content(); // never by opening the file again: closing that would drop our lock
            long cpu = HolderInfo.cpuNanosOf(now);
            if (!now.equals(holder)) {
                holder = now;
                holderCpu = cpu;
                holderSince = System.nanoTime();
                return true;
            }
            boolean working = cpu >= 0 && holderCpu >= 0 && cpu - holderCpu >= WORKING_CPU_NANOS
                    && System.nanoTime() - holderSince < MAX_TIMEOUTS_PER_HOLDER * lockTimeout.toNanos();
            if (working) {
                holderCpu = cpu;
            }
            return working;
        }

        synchronized StateLockedException lockedException() {
            return new StateLockedException("fake kernel state " + file + " is in use by another vdpactl process: "
                    + HolderInfo.describe(holder) + " has held the lock " + lockPath + " for more than "
                    + (lockTimeout.toMillis() % 1000 == 0 ? lockTimeout.toSeconds() + " s" : lockTimeout.toMillis() + " ms"));
        }
    }

    /** Reads the file without locking (diagnostics); a missing file yields the default inventory. */
    public Inventory read() {
        return readState().inventory();
    }

    /**
     * The open nodes live in a sibling file, {@code <state>.open}: opening a node is not a change of
     * the devices, so read-only commands that open one (vhost info) never rewrite the state itself.
     */
    public Path openNodesFile() {
        return file.resolveSibling(file.getFileName() + ".open");
    }

    private SharedState readState() {
        SharedState main = readMainState();
        Path open = openNodesFile();
        if (!Files.exists(open)) {
            return main;
        }
        try {
            List<NodeOpenRecord> records = JSON.readValue(open.toFile(),
                    JSON.getTypeFactory().constructCollectionType(List.class, NodeOpenRecord.class));
            SharedState state = main.withOpenNodes(records);
            String problem = InventoryValidation.problemOf(state);
            if (problem != null) {
                throw new CorruptStateException("fake kernel state " + open + " is invalid: " + problem + "; delete it");
            }
            return state;
        } catch (JacksonException e) {
            throw new CorruptStateException("fake kernel state " + open + " is corrupt (" + e.getOriginalMessage() + "); delete it");
        } catch (IOException e) {
            throw StateIoException.of("cannot read the fake kernel state " + open, e);
        }
    }

    private SharedState readMainState() {
        if (!Files.exists(file)) {
            return SharedState.of(Inventory.defaults());
        }
        try {
            StateFile s = JSON.readValue(file.toFile(), StateFile.class);
            if (s == null || s.version() != VERSION) {
                throw new CorruptStateException("fake kernel state " + file + " has "
                        + (s == null ? "no content" : "unsupported version " + s.version())
                        + "; delete it to start from the default devices");
            }
            if (kernelVersion == null) {
                kernelVersion = s.kernel();
            }
            SharedState state = new SharedState(new Inventory(s.mgmtdevs(), s.devices()), s.openNodes(), s.nodeRules(), s.vstats());
            String problem = InventoryValidation.problemOf(state);
            if (problem != null) {
                throw new CorruptStateException("fake kernel state " + file + " is invalid: " + problem
                        + "; fix or delete it to start from the default devices");
            }
            return state;
        } catch (JacksonException e) {
            throw new CorruptStateException("fake kernel state " + file + " is corrupt (" + e.getOriginalMessage()
                    + "); delete it to start from the default devices");
        } catch (IOException e) {
            throw StateIoException.of("cannot read the fake kernel state " + file, e);
        }
    }

    /** Writes what changed from {@code before} to {@code state}: the state file, the open-nodes file, or both. */
    private void write(SharedState before, SharedState state) {
        if (!state.withOpenNodes(List.of()).equals(before.withOpenNodes(List.of())) || !Files.exists(file) && before.openNodes().equals(state.openNodes())) {
            Inventory inventory = state.inventory();
            try {
                writeAtomically(file, JSON.writeValueAsBytes(new StateFile(VERSION, inventory.mgmtdevs(), inventory.devices(),
                        kernelVersion, List.of(), state.nodeRules(), state.vstats())));
            } catch (IOException e) {
                throw StateIoException.of("cannot save the fake kernel state " + file, e);
            }
        }
        if (!state.openNodes().equals(before.openNodes())) {
            try {
                writeAtomically(openNodesFile(), JSON.writeValueAsBytes(state.openNodes()));
            } catch (IOException e) {
                throw StateIoException.of("cannot save the fake kernel state " + openNodesFile(), e);
            }
        }
    }

    private void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        try {
            if (posix()) {
                Files.createFile(tmp, PosixFilePermissions.asFileAttribute(FILE_MODE));
            }
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(java.nio.ByteBuffer.wrap(bytes));
                ch.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the original error matters more
            }
            throw e;
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
            throw StateIoException.of("cannot create the fake kernel state directory " + dir, e);
        }
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    /** The locked state of one kernel's lifetime. */
    public final class Session implements AutoCloseable {
        private final StateLockFile lockFile;
        private final FileLock lock;
        private final Semaphore queue;
        private final AtomicBoolean closed = new AtomicBoolean();
        private SharedState state;

        private Session(StateLockFile lockFile, FileLock lock, Semaphore queue) {
            this.lockFile = lockFile;
            this.lock = lock;
            this.queue = queue;
        }

        /** The inventory as loaded. */
        public Inventory inventory() {
            return state.inventory();
        }

        /** The whole state as loaded. */
        public SharedState state() {
            return state;
        }

        /** Writes the state with a new inventory atomically (the lock is still held); the rest is kept. */
        public void save(Inventory newInventory) {
            save(state.withInventory(newInventory).pruned());
        }

        /** Writes the whole state atomically (the lock is still held). */
        public void save(SharedState newState) {
            if (!lock.isValid()) {
                throw new IllegalStateException("fake state session already closed");
            }
            write(state, newState);
            state = newState;
        }

        /** Releases the lock (idempotent). */
        @Override
        public void close() {
            if (!closed.compareAndSet(false, true)) {
                return;
            }
            try {
                if (lock.isValid()) {
                    lock.release();
                }
            } catch (IOException ignored) {
                // closing the descriptor releases it anyway
            } finally {
                queue.release();
                lockFile.release();
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

    /** Another process saved a change that conflicts with this one meanwhile (same device name). */
    public static final class StateConflictException extends RuntimeException {
        public StateConflictException(String message) {
            super(message);
        }
    }
}
