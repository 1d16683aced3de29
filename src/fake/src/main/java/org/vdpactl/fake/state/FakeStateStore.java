package org.vdpactl.fake.state;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.FileLockInterruptionException;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.InputFile;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.vdpactl.abi.json.JsonReadException;
import org.vdpactl.abi.json.RecordJson;

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
    /**
     * The state's writer, made at the first save: a command that only reads never starts Jackson's data binding
     * (start-up). The state is read by {@link RecordJson}, as strictly as this mapper was configured to read it: a
     * second "devices" or "name" key does not replace the first, text after the document is not ignored, 0.7 is
     * not truncated to 0, "1" is not 1.
     */
    private static final class Writer {
        /**
         * Names are bytes to the kernel: the file holds each name's UTF-8 bytes as given, also outside the
         * Basic Multilingual Plane (Jackson would otherwise write an emoji as the escapes "\\uD83D\\uDE00").
         */
        static final ObjectMapper JSON = JsonMapper.builder()
                .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .build();
    }
    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    /** Threads of one JVM queue here first: file locks are per process, and the JVM refuses overlapping ones. */
    private static final Map<Path, Semaphore> IN_PROCESS_QUEUES = new ConcurrentHashMap<>();
    private static final long POLL_NANOS = Duration.ofMillis(100).toNanos();
    /**
     * Per lock file, the holding (process and acquisition, as {@link LockWait} tells holders apart) a waiter of this JVM
     * gave up on. A later wait that finds the same holding still there gives up at once: that holder already kept the
     * lock past the timeout, and waiting for it again made every command wait twice (a failed open, then the close of
     * the kernel; a rehearsal's failed set-up, then its rollback).
     */
    private static final Map<Path, String> GIVEN_UP_ON = new ConcurrentHashMap<>();

    /** The path the user named (messages). */
    private final Path file;
    /** Where the state lives: {@link #file} with its symbolic links followed, so a save writes through a link, never over it. */
    private final Path target;
    private final Duration lockTimeout;
    private final StateWrites writes;
    private final HolderWatch watch;

    /**
     * The on-disk form. {@code kernel} is the fake kernel version ("6.1", "6.12", "7.2"); absent in
     * files written before kernel profiles existed, which therefore stay 6.12.
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    record StateFile(int version, List<Inventory.Mgmt> mgmtdevs, List<Inventory.Device> devices, String kernel,
                     List<NodeOpenRecord> openNodes, List<NodeRuleRecord> nodeRules, Map<String, Map<String, Long>> vstats) {
    }

    /** The kernel version the file recorded when last read, or the one the next save records. */
    private volatile String kernelVersion;

    public FakeStateStore(Path file) {
        this(file, DEFAULT_LOCK_TIMEOUT);
    }

    /**
     * @throws IllegalArgumentException   when {@code file} is the empty path (it would be the working directory)
     * @throws CorruptStateException       when it is a symbolic link that cannot be followed (a loop)
     */
    public FakeStateStore(Path file, Duration lockTimeout) {
        this(file, lockTimeout, StateWrites.CREATE);
    }

    /** {@link #FakeStateStore(Path, Duration)} whose node-open records create only what {@code writes} allows. */
    public FakeStateStore(Path file, Duration lockTimeout, StateWrites writes) {
        this(file, lockTimeout, writes, HolderWatch.SYSTEM);
    }

    /** {@code watch}: the time and holder CPU a lock waiter decides from (tests move their own). */
    FakeStateStore(Path file, Duration lockTimeout, StateWrites writes, HolderWatch watch) {
        if (file.toString().isEmpty()) {
            throw new IllegalArgumentException("the fake kernel state file cannot be the empty path");
        }
        this.file = file.toAbsolutePath();
        this.target = StateFilePaths.followLinks(this.file);
        this.lockTimeout = lockTimeout;
        this.writes = writes;
        this.watch = watch;
    }

    /** {@code $XDG_STATE_HOME/vdpactl/fake-state.json}, falling back to {@code ~/.local/state}. */
    public static Path defaultStateFile() {
        return defaultStateFile(System.getenv(), System.getProperty("user.home"));
    }

    /**
     * The default state file for the environment {@code env}: $XDG_STATE_HOME/vdpactl/fake-state.json when
     * that is an absolute path (the XDG Base Directory specification says to ignore a relative one), else
     * under $HOME/.local/state, and only where HOME is unset or relative under the passwd entry's home
     * ({@code userHome}, the JVM's user.home), as the shell and the XDG specification read HOME.
     */
    public static Path defaultStateFile(Map<String, String> env, String userHome) {
        String xdg = env.get("XDG_STATE_HOME");
        String home = env.get("HOME");
        Path base;
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            base = Path.of(xdg);
        } else if (home != null && !home.isBlank() && Path.of(home).isAbsolute()) {
            base = Path.of(home, ".local", "state");
        } else {
            base = Path.of(userHome, ".local", "state");
        }
        return base.resolve("vdpactl").resolve("fake-state.json");
    }

    public Path file() {
        return file;
    }

    /** The kernel version the state file recorded (as of the last read), if any. */
    public Optional<String> kernelVersion() {
        return Optional.ofNullable(kernelVersion);
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

    /**
     * {@link #updateState} of the node-open records: the one place where {@link StateWrites} decides what a
     * command may create. With {@link StateWrites#EXISTING_STATE_ONLY} and no state on the path (neither the
     * file nor its {@code .open} file exists) nothing is written or created, and false is returned: there is no
     * other process's record to respect, and a read-only command leaves no directory, lock or open file behind.
     */
    public boolean updateOpenRecords(UnaryOperator<SharedState> change) {
        if (writes == StateWrites.EXISTING_STATE_ONLY && !Files.exists(target) && !Files.exists(openNodesFile())) {
            return false;
        }
        updateState(change);
        return true;
    }

    /** The whole state as saved last (no lock); a missing file yields the default inventory and nothing else. */
    public SharedState loadState() {
        return readState();
    }

    /** Locks the state (queueing fairly) and reads it; the lock is held until the session is closed. */
    public Session open() {
        createParent();
        Path lockPath = target.resolveSibling(target.getFileName() + ".lock");
        StateLockFile lockFile;
        try {
            StateFileFaults.check(lockPath, StateFileFaults.Step.LOCK);
            lockFile = StateLockFile.use(lockPath,
                    posix() ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE_MODE)} : new FileAttribute<?>[0]);
        } catch (IOException e) {
            throw StateIoException.of("cannot lock the fake kernel state: " + lockPath, e);
        }
        Semaphore queue = IN_PROCESS_QUEUES.computeIfAbsent(lockPath, k -> new Semaphore(1, true));
        LockWait wait = new LockWait(lockPath, lockFile);
        try {
            while (!queue.tryAcquire(POLL_NANOS, TimeUnit.NANOSECONDS)) {
                wait.check(true);
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
            StateFilePaths.removeStaleTemporaries(target, openNodesFile());
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
        wait.check(false);
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
        } catch (ClosedByInterruptException | FileLockInterruptionException e) {
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
        channel.write(ByteBuffer.wrap(holder.getBytes(StandardCharsets.UTF_8)), 0);
    }

    /**
     * Time a holder must have run, waited for a CPU or waited for I/O since the deadline was last set to count as
     * working rather than stuck (an idle or stopped JVM accrues less).
     */
    private static final long WORKING_NANOS = 100_000_000L;
    private static final int MAX_TIMEOUTS_PER_HOLDER = 12;

    /**
     * One waiter's view of the queue: says once that it waits and for whom, and restarts its
     * deadline each time the holder changes or works (the queue moved).
     */
    private final class LockWait {
        private final Path lockPath;
        private final StateLockFile lockFile;
        private String holder;
        private String description;
        private long deadline;
        private HolderActivity holderActivity = HolderActivity.UNKNOWN;
        private long holderIoNanos;
        private long lastLook = watch.nanoTime();
        private long holderSince = watch.nanoTime();
        private boolean announced;
        private boolean missedLastLook;

        LockWait(Path lockPath, StateLockFile lockFile) {
            this.lockPath = lockPath;
            this.lockFile = lockFile;
            this.deadline = watch.nanoTime() + lockTimeout.toNanos();
        }

        /**
         * @param inProcessQueue true while this thread queues behind another thread of its JVM
         *                       (which may itself wait for another process), false while it waits for the file lock
         */
        synchronized void check(boolean inProcessQueue) {
            // as expired(): a look that decided nothing or saw the queue move never expires the wait. Ignoring it
            // expired waits at their first look: the deadline is set when the wait begins, and a JVM starved of CPU
            // (64 at once on 2 CPUs, load 90) took over 10 s from there to the first look, which then missed the
            // holder just released; 47 of 56 waiters gave up on a queue that moved (scripts/check-concurrency 64)
            if (!look(inProcessQueue) && watch.nanoTime() - deadline >= 0) {
                throw lockedException();
            }
        }

        synchronized boolean expired() {
            return look(false) ? false : watch.nanoTime() - deadline >= 0;
        }

        /**
         * Looks who holds the lock now, says once whom it waits for, and restarts the deadline when the queue moved.
         * Returns false when this look saw the same holder idle (the deadline may expire on it).
         */
        private boolean look(boolean inProcessQueue) {
            long self = ProcessHandle.current().pid();
            long pid = watch.pidHolding(lockPath);
            String content = lockFile.content(); // never by opening the file again: closing that would drop our lock
            String who;
            if (pid == LockHolders.UNKNOWN) {
                who = HolderInfo.describe(content);
                pid = HolderInfo.pidOf(content);
            } else if (pid == self || pid == LockHolders.NONE && inProcessQueue) {
                who = "another thread of this process (pid " + self + ")";
                pid = self;
            } else if (pid == LockHolders.NONE && !missedLastLook) {
                missedLastLook = true;
                // Released just now (the lock is ours in a moment, the next holder shows on the next look), or a
                // /proc/locks read that missed the holder: it is read in pieces, and locks taken and dropped by other
                // processes meanwhile shift its lines. Neither is a new holder: counting it as one restarted the
                // deadline, and an idle holder was then waited for past the timeout (5 of 90 FakeStateStoreTest runs).
                // This look decides nothing: no restart, and no expiry on it (the next look sees the holder, if any).
                // Two misses in a row are taken as they come (a file system whose locks /proc/locks never lists for it
                // must not make the wait endless).
                return true;
            } else if (pid == LockHolders.NONE) {
                who = null;
            } else {
                who = content.startsWith("pid " + pid + " ") ? HolderInfo.describe(content)
                        : "pid " + pid + " (" + ProcessHandle.of(pid).map(HolderInfo::commandOf).orElse("exited") + ")";
            }
            missedLastLook = pid == LockHolders.NONE;
            if (pid != self && (pid + " " + content).equals(GIVEN_UP_ON.get(lockPath))) {
                description = who;
                deadline = watch.nanoTime();
                return false;
            }
            boolean moved = queueMoved(pid + " " + content, pid == self ? HolderActivity.UNKNOWN : watch.activityOf(pid));
            if (moved) {
                deadline = watch.nanoTime() + lockTimeout.toNanos();
            }
            if (who != null) {
                description = who;
                if (!announced) {
                    announced = true;
                    if (pid == self) {
                        // this process's own threads take turns (a rehearsal's devices record their opens): the
                        // normal case, not one an operator can act on; a WARN here taught operators to ignore WARN
                        LOG.debug("waiting for the fake kernel state lock {} held by {}", lockPath, who);
                    } else {
                        LOG.warn("waiting for the fake kernel state lock {} held by {}", lockPath, who);
                    }
                }
            }
            return moved;
        }

        /**
         * Whether the wait made progress since the deadline was last set: another holder, or the same holder
         * process's threads ran, waited for a CPU or waited for I/O for at least {@link #WORKING_NANOS} ({@link
         * HolderActivity}: it is working, only slowly, as 64 JVMs on 2 CPUs or an fsync behind a build's dirty pages
         * are). Time in I/O is the waiter's own time between two looks that saw the holder in it. Only a holder that
         * neither changes nor works for the whole timeout counts as stuck (asleep, stopped, waiting for a person),
         * and none is waited for longer than {@link #MAX_TIMEOUTS_PER_HOLDER} timeouts.
         */
        private boolean queueMoved(String now, HolderActivity activity) {
            long at = watch.nanoTime();
            long sinceLastLook = at - lastLook;
            lastLook = at;
            if (!now.equals(holder)) {
                holder = now;
                holderActivity = activity;
                holderIoNanos = 0;
                holderSince = at;
                return true;
            }
            if (!activity.known()) {
                return false; // this process, or none to read: only a change of holder moves the queue
            }
            if (activity.inIoWait()) {
                holderIoNanos += sinceLastLook;
            }
            boolean working = holderActivity.known()
                    && activity.busySince(holderActivity) + holderIoNanos >= WORKING_NANOS
                    && at - holderSince < MAX_TIMEOUTS_PER_HOLDER * lockTimeout.toNanos();
            if (!holderActivity.known()) {
                holderActivity = activity; // the first reading of this holder: measure from here
            }
            if (LOG.isTraceEnabled()) {
                LOG.trace("lock wait: holder {}: {} ms run or run-queue, {} ms in I/O since the deadline was set; working {}",
                        now.lines().findFirst().orElse(""), activity.busySince(holderActivity) / 1_000_000, holderIoNanos / 1_000_000, working);
            }
            if (working) {
                holderActivity = activity;
                holderIoNanos = 0;
            }
            return working;
        }

        synchronized StateLockedException lockedException() {
            // only a holder this JVM saw by its pid, never one of its own threads
            if (holder != null && !holder.startsWith("-") && !holder.startsWith(ProcessHandle.current().pid() + " ")) {
                GIVEN_UP_ON.put(lockPath, holder);
            }
            return new StateLockedException("fake kernel state " + file + " is in use by another vdpactl process: "
                    + (description == null ? "its holder" : description) + " has held the lock " + lockPath + " for more than "
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
        return target.resolveSibling(target.getFileName() + ".open");
    }

    private SharedState readState() {
        SharedState main = readMainState();
        Path open = openNodesFile();
        try {
            byte[] bytes = readInput(open);
            if (bytes == null) {
                return main;
            }
            List<NodeOpenRecord> records = RecordJson.readList(bytes, NodeOpenRecord.class);
            String nulls = InventoryValidation.nullEntry("openNodes", records);
            if (nulls != null) {
                throw new CorruptStateException("fake kernel state " + open + " is invalid: " + nulls + "; delete it");
            }
            SharedState state = main.withOpenNodes(records);
            String problem = InventoryValidation.problemOf(state);
            if (problem != null) {
                throw new CorruptStateException("fake kernel state " + open + " is invalid: " + problem + "; delete it");
            }
            return state;
        } catch (JsonReadException e) {
            throw new CorruptStateException("fake kernel state " + open + " is corrupt (" + e.getMessage() + "); delete it");
        } catch (IOException e) {
            throw StateIoException.of("cannot read the fake kernel state " + open, e);
        }
    }

    /**
     * The bytes of one of the state's files, or null when it does not exist; a file that is not
     * regular or too large (a FIFO, /dev/zero) is refused without blocking or filling the heap.
     */
    private byte[] readInput(Path path) throws IOException {
        try {
            StateFileFaults.check(path, StateFileFaults.Step.READ);
            return InputFile.read(path);
        } catch (NoSuchFileException e) {
            return null;
        } catch (InputFile.RefusedException e) {
            throw new CorruptStateException("fake kernel state " + (path.equals(target) ? file : path)
                    + " cannot be used: " + e.getReason());
        } catch (InputFile.ErrnoFileSystemException e) {
            if (e.errno() == Errno.ENOTDIR || e.errno() == Errno.ENAMETOOLONG) {
                // a path no file can have (a component is a regular file): bad input, not an environment problem
                throw new CorruptStateException("fake kernel state " + (path.equals(target) ? file : path)
                        + " cannot be used: " + e.getReason());
            }
            throw e;
        }
    }

    private SharedState readMainState() {
        try {
            byte[] bytes = readInput(target);
            if (bytes == null) {
                return SharedState.of(Inventory.defaults());
            }
            StateFile s = RecordJson.read(bytes, StateFile.class);
            if (s == null || s.version() != VERSION) {
                throw new CorruptStateException("fake kernel state " + file + " has "
                        + (s == null ? "no content" : "unsupported version " + s.version())
                        + "; delete it to start from the default devices");
            }
            for (String nulls : new String[] {InventoryValidation.nullEntry("mgmtdevs", s.mgmtdevs()),
                    InventoryValidation.nullEntry("devices", s.devices()), InventoryValidation.nullEntry("nodeRules", s.nodeRules())}) {
                if (nulls != null) {
                    throw new CorruptStateException("fake kernel state " + file + " is invalid: " + nulls
                            + "; fix or delete it to start from the default devices");
                }
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
        } catch (JsonReadException e) {
            throw new CorruptStateException("fake kernel state " + file + " is corrupt (" + e.getMessage()
                    + "); delete it to start from the default devices");
        } catch (IOException e) {
            throw StateIoException.of("cannot read the fake kernel state " + file, e);
        }
    }

    /** Writes what changed from {@code before} to {@code state}: the state file, the open-nodes file, or both. */
    private void write(SharedState before, SharedState state) {
        if (!state.withOpenNodes(List.of()).equals(before.withOpenNodes(List.of())) || !Files.exists(target) && before.openNodes().equals(state.openNodes())) {
            Inventory inventory = state.inventory();
            try {
                writeAtomically(target, Writer.JSON.writeValueAsBytes(new StateFile(VERSION, inventory.mgmtdevs(), inventory.devices(),
                        kernelVersion, List.of(), state.nodeRules(), state.vstats())));
            } catch (IOException e) {
                throw StateIoException.of("cannot save the fake kernel state " + file, e);
            }
        }
        if (!state.openNodes().equals(before.openNodes())) {
            try {
                writeAtomically(openNodesFile(), Writer.JSON.writeValueAsBytes(state.openNodes()));
            } catch (IOException e) {
                throw StateIoException.of("cannot save the fake kernel state " + openNodesFile(), e);
            }
        }
    }

    private void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path tmp = StateFilePaths.temporaryFor(target);
        try {
            StateFileFaults.check(tmp, StateFileFaults.Step.WRITE);
            if (posix()) {
                Files.createFile(tmp, PosixFilePermissions.asFileAttribute(FILE_MODE));
            }
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(ByteBuffer.wrap(bytes));
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
        Path dir = target.getParent();
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
    public static class StateConflictException extends RuntimeException {
        public StateConflictException(String message) {
            super(message);
        }
    }

    /**
     * This process deleted a device another process deleted meanwhile: on the kernel the two DEV_DELs
     * are serialised under the vdpa lock and the second one fails with ENODEV.
     */
    public static final class DeletedMeanwhileException extends StateConflictException {
        public DeletedMeanwhileException(String message) {
            super(message);
        }
    }
}
