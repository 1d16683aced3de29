package org.vdpactl.fake.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.bus.Provisioning;
import org.vdpactl.sys.ThreadAccounts;
import org.vdpactl.testsupport.SeparateJvm;
import org.vdpactl.time.RealClock;

/** The CLI's shared fake state: round trip, locking, atomic 0600 writes, clear errors. */
class FakeStateStoreTest {
    @TempDir
    Path dir;

    private Path stateFile() {
        return dir.resolve("state").resolve("fake-state.json");
    }

    @Test
    void freshStateHasTheDefaultInventory() {
        try (FakeKernel k = FakeKernel.openShared(stateFile(), RealClock.INSTANCE, List.of())) {
            assertEquals(List.of("vdpa0", "vdpa1", "mlx5-0", "mlx5-1", "mlx5-2", "mlx5-3"),
                    FakeInside.bus(k).devices().stream().map(d -> d.name()).toList());
            assertEquals(List.of("vdpasim_net", "vdpasim_blk", "pci/0000:08:00.2", "pci/0000:08:00.3",
                    "pci/0000:08:00.4", "pci/0000:08:00.5", "vduse"), FakeInside.bus(k).managementDevices().stream().map(m -> m.displayName()).toList());
            assertEquals(33, FakeInside.device(k, "mlx5-3").orElseThrow().nvqs());
            assertEquals(5, FakeInside.device(k, "mlx5-3").orElseThrow().minor());
            assertArrayEquals(new byte[] {2, 0, 0, 0, 0, 1}, FakeInside.device(k, "vdpa0").orElseThrow().configMac());
        }
        assertFalse(Files.exists(stateFile()), "a kernel that changed nothing wrote the state");
    }

    @Test
    void changesSurviveAndFileIsPrivate() throws Exception {
        try (FakeKernel k = FakeKernel.openShared(stateFile(), RealClock.INSTANCE, List.of())) {
            k.deleteDevice("vdpa1");
            FakeInside.addDevice(k, "vdpasim_net", "vdpa2", new Provisioning(new byte[] {2, 0, 0, 0, 0, 7}, 9000, null, null));
            FakeInside.device(k, "vdpa0").orElseThrow().setMacAddress(new byte[] {2, 0, 0, 0, 0, 0x42});
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(stateFile())));
        try (FakeKernel k = FakeKernel.openShared(stateFile(), RealClock.INSTANCE, List.of())) {
            var vdpa2 = FakeInside.device(k, "vdpa2").orElseThrow();
            assertEquals(1, vdpa2.minor(), "the freed minor was reused and is remembered");
            assertEquals(9000, vdpa2.provisioning().mtu());
            assertArrayEquals(new byte[] {2, 0, 0, 0, 0, 0x42}, FakeInside.device(k, "vdpa0").orElseThrow().configMac());
            assertFalse(FakeInside.device(k, "vdpa1").isPresent());
            assertEquals(FakeInside.inventory(k), new FakeStateStore(stateFile()).read());
        }
        try (var files = Files.list(stateFile().getParent())) {
            // .open: the open nodes (dev del recorded its claim of vdpa1's node there)
            assertEquals(List.of("fake-state.json", "fake-state.json.lock", "fake-state.json.open"),
                    files.map(f -> f.getFileName().toString()).sorted().toList(), "no temporary files left behind");
        }
    }

    @Test
    void secondUserWaitsThenFailsClearly() {
        FakeStateStore first = new FakeStateStore(stateFile());
        try (FakeStateStore.Session s = first.open()) {
            FakeStateStore second = new FakeStateStore(stateFile(), Duration.ofMillis(200));
            var e = assertThrows(FakeStateStore.StateLockedException.class, second::open);
            assertTrue(e.getMessage().contains("in use by another vdpactl process"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"));
        }
        assertFalse(StateLockFile.isOpen(lockFile()), "the lock file's descriptor stays open after a timeout");
    }

    /**
     * A holder in another process that keeps working for longer than the timeout is waited for (the
     * queue is slow, not stuck); one that holds the lock without running times out with exit 8's
     * message, as before. The holder is a real process holding the real lock; the waiter's clock and
     * its reading of the holder's CPU time are the test's ({@link SteppedWatch}), and the test moves
     * them only between two looks of the waiter, so the outcome does not depend on the machine's load.
     */
    @Test
    void aWorkingHolderInAnotherProcessIsWaitedForAnIdleOneTimesOut() throws Exception {
        try (Holder holder = Holder.start(stateFile())) {
            SteppedWatch watch = new SteppedWatch();
            Waiter waiter = Waiter.start(stateFile(), watch);
            watch.awaitLooksAfterNow(waiter.thread);
            for (int i = 0; i < 5; i++) { // 3 s of the waiter's time, three times its 1 s timeout
                watch.cpu += 200_000_000L; // the holder worked 200 ms (a "working" holder uses 100 ms or more)
                watch.awaitLooksAfterNow(waiter.thread); // the waiter saw it: its deadline restarts from now
                watch.now += 600_000_000L; // less than the timeout since that restart
                watch.awaitLooksAfterNow(waiter.thread);
                assertTrue(waiter.thread.isAlive(), "a working holder must be waited for: " + waiter.failure);
            }
            holder.close(); // the holder's lock goes with it
            waiter.thread.join();
            assertEquals(null, waiter.failure, "a working holder must be waited for");
        }
        try (Holder holder = Holder.start(stateFile())) {
            SteppedWatch watch = new SteppedWatch();
            Waiter waiter = Waiter.start(stateFile(), watch);
            watch.awaitLooksAfterNow(waiter.thread);
            watch.now += 1_100_000_000L; // past the timeout, and the holder used no CPU
            // the look that began before this change and the one after it, which gives up: a third is a waiter still waiting
            watch.awaitLooks(waiter.thread, 3);
            assertFalse(waiter.thread.isAlive(), "an idle holder must time out");
            waiter.thread.join();
            assertTrue(waiter.failure instanceof FakeStateStore.StateLockedException, String.valueOf(waiter.failure));
            assertTrue(waiter.failure.getMessage().contains("in use by another vdpactl process"), waiter.failure.getMessage());
        }
    }

    /**
     * /proc/locks is read in pieces, and locks other processes take and drop meanwhile shift its lines: a read can miss
     * the holder. The waiter took such a miss for a new holder and restarted its deadline, so an idle holder was waited
     * for past the timeout (5 of 90 runs of the test above, more under lock traffic). Here every other reading misses,
     * on purpose: the idle holder must still time out.
     */
    @Test
    void aListingThatMissesTheHolderEveryOtherLookDoesNotRestartTheWait() throws Exception {
        try (Holder holder = Holder.start(stateFile())) {
            SteppedWatch watch = new SteppedWatch();
            watch.missEveryOtherListing = true;
            Waiter waiter = Waiter.start(stateFile(), watch);
            watch.awaitLooksAfterNow(waiter.thread);
            watch.now += 1_100_000_000L; // past the timeout; the holder used no CPU
            watch.awaitLooks(waiter.thread, 3);
            assertFalse(waiter.thread.isAlive(), "an idle holder must time out even when the listing misses it");
            waiter.thread.join();
            assertTrue(waiter.failure instanceof FakeStateStore.StateLockedException, String.valueOf(waiter.failure));
            assertTrue(watch.missed.get() > 0, "the listing missed the holder");
        }
    }

    /**
     * A holder blocked on I/O (an fsync behind a build's dirty pages: state D, no CPU used) is slow, not stuck: it is
     * waited for however long that takes within the cap, and once it leaves I/O without working it times out again.
     * On CPU time alone the waiters of such a holder gave up after the timeout (CI run of 1ddc022).
     */
    @Test
    void aHolderWaitingForIoIsWaitedForThenTimesOutWhenIdle() throws Exception {
        try (Holder holder = Holder.start(stateFile())) {
            SteppedWatch watch = new SteppedWatch();
            watch.io = true; // the holder's thread is in state D; its CPU stays where it is
            Waiter waiter = Waiter.start(stateFile(), watch);
            watch.awaitLooksAfterNow(waiter.thread);
            for (int i = 0; i < 5; i++) { // 3 s of the waiter's time, three times its 1 s timeout, no CPU used
                watch.now += 600_000_000L; // less than the timeout between two looks that both saw it in I/O
                watch.awaitLooksAfterNow(waiter.thread);
                assertTrue(waiter.thread.isAlive(), "a holder waiting for I/O must be waited for: " + waiter.failure);
            }
            watch.io = false; // out of I/O, and idle from now on
            watch.awaitLooksAfterNow(waiter.thread);
            watch.now += 1_100_000_000L;
            watch.awaitLooks(waiter.thread, 3);
            assertFalse(waiter.thread.isAlive(), "a holder idle after its I/O must time out");
            waiter.thread.join();
            assertTrue(waiter.failure instanceof FakeStateStore.StateLockedException, String.valueOf(waiter.failure));
        }
    }

    /**
     * A waiter starved of CPU between the start of its wait and its first look (64 JVMs at load 90 took over 10 s),
     * whose first look then misses the holder just released: that look decides nothing, and the wait goes on. The
     * first check expired it on the deadline set when the wait began (47 of 56 waiters of scripts/check-concurrency).
     */
    @Test
    void aLateFirstLookThatMissesTheHolderDoesNotExpireTheWait() throws Exception {
        try (Holder holder = Holder.start(stateFile())) {
            SteppedWatch watch = new SteppedWatch();
            watch.firstListingLateAndMissed = true;
            Waiter waiter = Waiter.start(stateFile(), watch);
            watch.awaitLooksAfterNow(waiter.thread);
            assertTrue(waiter.thread.isAlive(), "a look that decided nothing expired the wait: " + waiter.failure);
            holder.close();
            waiter.thread.join();
            assertEquals(null, waiter.failure, "the waiter must get the lock once the holder is gone");
            assertTrue(watch.missed.get() > 0, "the first listing missed the holder");
        }
    }

    /** The reading the waiter uses by default sees a working holder work (waited for by state, not by time)... */
    @Test
    void theSystemWatchSeesAWorkingHolderWorkAndAStoppedOneNot() throws Exception {
        Files.createDirectories(stateFile().getParent());
        Path out = stateFile().resolveSibling("worker.out");
        Process worker = SeparateJvm.start(LockHolderMain.class, out,
                stateFile().resolveSibling("worker.err"), stateFile().toString(), "600000", "work");
        try {
            Holder.awaitLocked(worker, out);
            HolderActivity start = HolderWatch.SYSTEM.activityOf(worker.pid());
            assertTrue(start.known(), "nothing known of the holder");
            while (HolderWatch.SYSTEM.activityOf(worker.pid()).busySince(start) < 200_000_000L) {
                assertTrue(worker.isAlive(), "the worker exited early");
                Thread.sleep(20);
            }
            assertFalse(HolderWatch.SYSTEM.activityOf(ProcessHandle.current().pid()).known(), "its own JVM is not a holder to measure");
            // ...and a stopped one (SIGSTOP, as a vdpactl suspended by ^Z) neither runs, nor waits for a CPU or I/O
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(worker.pid())).start().waitFor());
            awaitStopped(worker.pid());
            HolderActivity stopped = HolderWatch.SYSTEM.activityOf(worker.pid());
            Thread.sleep(300);
            HolderActivity later = HolderWatch.SYSTEM.activityOf(worker.pid());
            assertEquals(0, later.busySince(stopped), "a stopped holder accrued run or run-queue time");
            assertFalse(later.inIoWait(), "a stopped holder is not in I/O");
        } finally {
            worker.destroyForcibly();
            worker.waitFor();
        }
    }

    /** Until every thread of {@code pid} is stopped (state T): a thread still on its way there may run a little. */
    private static void awaitStopped(long pid) throws Exception {
        while (true) {
            boolean all = true;
            try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
                for (Path t : tasks.toList()) {
                    all &= ThreadAccounts.stateOf(Files.readString(t.resolve("stat"))) == 'T';
                }
            }
            if (all) {
                return;
            }
            Thread.sleep(10);
        }
    }


    /** The waiter's time and its reading of the holder's work, moved by the test; counts the waiter's looks. */
    static final class SteppedWatch implements HolderWatch {
        volatile long now;
        volatile long cpu;
        volatile boolean io;
        volatile boolean missEveryOtherListing;
        volatile boolean firstListingLateAndMissed;
        final AtomicLong missed = new AtomicLong();
        private final AtomicLong listings = new AtomicLong();

        @Override
        public long pidHolding(Path lockFile) {
            if (firstListingLateAndMissed && listings.get() == 0) {
                listings.incrementAndGet();
                missed.incrementAndGet();
                now += 1_100_000_000L; // the waiter ran again only after its whole 1 s timeout...
                return LockHolders.NONE; // ...and its listing missed the holder
            }
            if (missEveryOtherListing && listings.incrementAndGet() % 2 == 0) {
                missed.incrementAndGet();
                return LockHolders.NONE; // a look that does not read the CPU: not counted by awaitLooks
            }
            return HolderWatch.super.pidHolding(lockFile);
        }
        private final AtomicLong looks = new AtomicLong();

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public HolderActivity activityOf(long pid) {
            HolderActivity a = new HolderActivity(Map.of(1L, cpu), io);
            looks.incrementAndGet(); // after the read: a look counted later than a change surely saw it...
            return a;
        }

        /**
         * ...so two looks counted after this call include one that began after every change made before it;
         * returns early when the waiter has ended (an expired wait looks no more).
         */
        void awaitLooksAfterNow(Thread waiter) throws InterruptedException {
            awaitLooks(waiter, 2);
        }

        /** Until {@code n} more looks are counted or the waiter has ended. */
        void awaitLooks(Thread waiter, int n) throws InterruptedException {
            long target = looks.get() + n;
            while (looks.get() < target && waiter.isAlive()) {
                Thread.sleep(5);
            }
        }
    }

    /** A thread opening the store behind the holder with a 1 s timeout on {@code watch}'s clock. */
    static final class Waiter {
        final Thread thread;
        volatile Throwable failure;

        private Waiter(Path state, HolderWatch watch) {
            thread = Thread.ofPlatform().unstarted(() -> {
                try (FakeStateStore.Session s = new FakeStateStore(state, Duration.ofSeconds(1), StateWrites.CREATE, watch).open()) {
                    s.inventory();
                } catch (RuntimeException e) {
                    failure = e;
                }
            });
        }

        static Waiter start(Path state, HolderWatch watch) {
            Waiter w = new Waiter(state, watch);
            w.thread.start();
            return w;
        }
    }

    /** Another process holding the state lock until it is closed (killed). */
    record Holder(Process process) implements AutoCloseable {
        static Holder start(Path state) throws Exception {
            Files.createDirectories(state.getParent());
            Path out = state.resolveSibling("holder.out");
            Files.deleteIfExists(out);
            Process p = SeparateJvm.start(LockHolderMain.class, out,
                    state.resolveSibling("holder.err"), state.toString(), "600000", "sleep");
            awaitLocked(p, out);
            return new Holder(p);
        }

        static void awaitLocked(Process p, Path out) throws Exception {
            while (!Files.exists(out) || !Files.readString(out).contains("locked")) {
                assertTrue(p.isAlive(), "the holder exited early");
                Thread.sleep(20);
            }
        }

        @Override
        public void close() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor();
        }
    }

    /**
     * An fcntl lock belongs to the process, and the process loses it when it closes any descriptor
     * of the file. So nothing in a JVM may open and close the lock file while one of its threads
     * holds the lock. Here a second thread of the same JVM waits for the state and looks at who holds
     * it (every 100 ms) while a session is open. Another process must still find the state locked:
     * when it did not, a `dev add` of 64 concurrent CLI processes was lost (scripts/check-concurrency).
     */
    @Test
    void waitingInTheSameJvmKeepsTheHoldersLock() throws Exception {
        FakeStateStore first = new FakeStateStore(stateFile());
        Thread waiter;
        try (FakeStateStore.Session s = first.open()) {
            waiter = Thread.ofPlatform().start(() -> {
                try (FakeStateStore.Session w = new FakeStateStore(stateFile(), Duration.ofSeconds(30)).open()) {
                    w.inventory();
                }
            });
            Thread.sleep(350);
            assertTrue(waiter.isAlive(), "the second thread must still be waiting");
            assertFalse(anotherProcessCanLock(lockFile()),
                    "another process took the state lock while this JVM held it");
        }
        waiter.join();
        assertFalse(StateLockFile.isOpen(lockFile()), "the lock file's descriptor stays open after the last session");
    }

    /**
     * The waiter names the process the kernel says holds the lock, not what the lock file says: the
     * file keeps the previous holder's line (here this very process's) until the next holder writes
     * its own, and a holder that has not written yet left it empty ("held by another process").
     * The holder here is a process that takes the fcntl lock without writing a line, which is how
     * every holder looks between its lock() and its line.
     */
    @Test
    void theWaiterNamesTheProcessThatHoldsTheLockNotTheLastLineInTheFile() throws Exception {
        FakeStateStore store = new FakeStateStore(stateFile(), Duration.ofMillis(500));
        try (FakeStateStore.Session s = store.open()) {
            s.inventory(); // leaves "pid <this process> ..." in the lock file
        }
        long self = ProcessHandle.current().pid();
        for (boolean emptied : new boolean[] {false, true}) {
            if (emptied) {
                Files.writeString(lockFile(), "");
            }
            Process holder = new ProcessBuilder("python3", "-c", "import fcntl, sys\n"
                    + "f = open(sys.argv[1], 'r+')\n"
                    + "fcntl.lockf(f, fcntl.LOCK_EX)\n"
                    + "print('locked', flush=True)\n"
                    + "sys.stdin.read()\n", lockFile().toString()).redirectErrorStream(true).start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream()));
                assertEquals("locked", out.readLine());
                FakeStateStore.StateLockedException e = Assertions.assertThrows(
                        FakeStateStore.StateLockedException.class, () -> store.open().close());
                assertTrue(e.getMessage().contains("pid " + holder.pid() + " (python3"), e.getMessage());
                assertFalse(e.getMessage().contains("pid " + self + " "), e.getMessage());
            } finally {
                holder.getOutputStream().close();
                holder.waitFor();
            }
        }
    }

    private Path lockFile() {
        return stateFile().toAbsolutePath().resolveSibling("fake-state.json.lock");
    }

    /** Whether another process gets the fcntl lock (Python's lockf is fcntl F_SETLK, as Java's FileChannel.lock). */
    private static boolean anotherProcessCanLock(Path lockFile) throws Exception {
        Process p = new ProcessBuilder("python3", "-c", "import fcntl, sys\n"
                + "f = open(sys.argv[1], 'r+')\n"
                + "try:\n    fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)\nexcept OSError:\n    sys.exit(3)\n",
                lockFile.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        int code = p.waitFor();
        assertTrue(code == 0 || code == 3, "python3 lockf probe failed: " + out);
        return code == 0;
    }

    @Test
    void secondUserGetsTheStateOnceReleased() throws Exception {
        FakeStateStore first = new FakeStateStore(stateFile());
        FakeStateStore.Session s = first.open();
        Thread releaser = new Thread(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            s.save(Inventory.empty());
            s.close();
        });
        releaser.start();
        try (FakeStateStore.Session second = new FakeStateStore(stateFile(), Duration.ofSeconds(10)).open()) {
            assertEquals(Inventory.empty(), second.inventory());
        }
        releaser.join();
    }

    @Test
    void corruptFilesGiveOneLineErrors() throws Exception {
        Files.createDirectories(stateFile().getParent());
        for (String content : new String[] {"{not json", "{\"version\": 99, \"mgmtdevs\": [], \"devices\": []}",
                "{\"version\": 1, \"mgmtdevs\": [{\"profile\": \"nope\"}], \"devices\": []}",
                "{\"version\": 1, \"mgmtdevs\": [], \"devices\": [{\"name\": \"x\", \"mgmtdev\": \"ghost\"}]}"}) {
            Files.writeString(stateFile(), content);
            var e = assertThrows(FakeStateStore.CorruptStateException.class,
                    () -> FakeKernel.openShared(stateFile(), RealClock.INSTANCE, List.of()).close(), content);
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertTrue(e.getMessage().contains(stateFile().toString()), e.getMessage());
        }
        // the lock was released after each failure
        try (FakeStateStore.Session s = new FakeStateStore(stateFile(), Duration.ofMillis(100)).open()) {
            assertEquals("x", s.inventory().devices().getFirst().name());
        }
    }

    @Test
    void defaultLocationIsUnderTheXdgStateHome() {
        assertTrue(FakeStateStore.defaultStateFile().endsWith(Path.of("vdpactl", "fake-state.json")));
    }
}
