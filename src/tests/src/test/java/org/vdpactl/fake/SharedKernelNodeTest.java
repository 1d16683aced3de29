package org.vdpactl.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.fake.state.FakeStateStore;
import org.vdpactl.fake.state.NodeOpenRecord;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.testsupport.SeparateJvm;
import org.vdpactl.time.VirtualClock;

/**
 * Two fake kernels on one state file behave as two processes on one kernel: vhost_vdpa_open's
 * single-opener rule and vhost_vdpa_remove's wait for the close hold across them, a dead holder
 * blocks nobody, and node rules made in one hold in the other.
 */
class SharedKernelNodeTest {
    private static final String NET = "/dev/vhost-vdpa-0";
    private static final int RW = libc_h.O_RDWR() | libc_h.O_CLOEXEC();

    @TempDir
    Path dir;

    private Path stateFile() {
        return dir.resolve("fake-state.json");
    }

    private FakeKernel shared() {
        return FakeKernel.openShared(stateFile(), new VirtualClock(), List.of());
    }

    private static int errno(Runnable call) {
        return assertThrows(SyscallException.class, call::run).errno();
    }

    @Test
    void aNodeOpenInOneKernelIsBusyInTheOther() {
        try (FakeKernel a = shared(); FakeKernel b = shared(); FakeProcess pa = a.newProcess(); FakeProcess pb = b.newProcess()) {
            int fd = pa.open(NET, RW);
            assertEquals(Errno.EBUSY, errno(() -> pb.open(NET, RW)));
            pb.close(pb.open("/dev/vhost-vdpa-1", RW)); // another node is free
            pa.close(fd);
            pb.close(pb.open(NET, RW));
        }
    }

    @Test
    void aHolderThatNoLongerRunsBlocksNobody() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        writeOpenRecord(new NodeOpenRecord("vdpa0", 0, gone.pid(), null, "kernel-of-a-killed-vdpactl", false));
        try (FakeKernel k = shared(); FakeProcess p = k.newProcess()) {
            p.close(p.open(NET, RW));
        }
    }

    @Test
    void aHolderThatRunsKeepsTheNodeBusy() {
        ProcessHandle parent = ProcessHandle.current().parent().orElseThrow();
        writeOpenRecord(new NodeOpenRecord("vdpa0", 0, parent.pid(),
                parent.info().startInstant().map(i -> i.toEpochMilli()).orElse(null), "kernel-of-another-vdpactl", false));
        try (FakeKernel k = shared(); FakeProcess p = k.newProcess()) {
            assertEquals(Errno.EBUSY, errno(() -> p.open(NET, RW)));
            p.close(p.open("/dev/vhost-vdpa-1", RW));
        }
    }

    /**
     * The liveness check against a real second OS process (its own pid and start time): while it
     * holds the node, this process gets EBUSY; once it is killed with SIGKILL (no close, no clean-up
     * of its record), the node opens.
     */
    @Test
    void aNodeHeldByAnotherProcessIsBusyUntilThatProcessIsKilled() throws Exception {
        try (FakeKernel k = shared()) {
            k.saveState(); // the other process must see the same devices
        }
        Process holder = SeparateJvm.start(NodeHolderMain.class, dir.resolve("holder.out"),
                dir.resolve("holder.err"), stateFile().toString(), NET);
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (!Files.readString(dir.resolve("holder.out")).contains("open")) {
                assertTrue(holder.isAlive(), () -> "the holder exited: " + read(dir.resolve("holder.err")));
                assertTrue(System.nanoTime() < deadline, "the holder did not open the node");
                Thread.sleep(50);
            }
            try (FakeKernel k = shared(); FakeProcess p = k.newProcess()) {
                assertEquals(Errno.EBUSY, errno(() -> p.open(NET, RW)), "open while another live process holds it");
            }
        } finally {
            holder.destroyForcibly(); // SIGKILL: the record of its open stays in the file
            holder.waitFor();
        }
        String records = read(new FakeStateStore(stateFile()).openNodesFile());
        assertTrue(new ObjectMapper().readTree(records).findValues("pid").stream()
                        .anyMatch(pid -> pid.asLong() == holder.pid()),
                () -> "the killed holder's record must still be there (only liveness can ignore it): " + records);
        try (FakeKernel k = shared(); FakeProcess p = k.newProcess()) {
            p.close(p.open(NET, RW));
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(" + e + ")";
        }
    }

    @Test
    void aClosedKernelsOpensNoLongerCount() {
        FakeKernel a = shared();
        FakeProcess pa = a.newProcess();
        pa.open(NET, RW);
        a.close(); // like a process that exits without closing its fds
        try (FakeKernel b = shared(); FakeProcess pb = b.newProcess()) {
            pb.close(pb.open(NET, RW));
        }
    }

    @Test
    void devDelWaitsForTheOtherKernelsClose() throws Exception {
        try (FakeKernel a = shared(); FakeKernel b = shared(); FakeProcess pa = a.newProcess()) {
            int fd = pa.open(NET, RW);
            CompletableFuture<Void> del = CompletableFuture.runAsync(() -> {
                try {
                    b.deleteDevice("vdpa0");
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            // the delete cannot finish while the node is open (b's bus lock stays held, as vdpa_dev_lock
            // is); give it time to get it wrong
            assertThrows(TimeoutException.class, () -> del.get(500, TimeUnit.MILLISECONDS));
            assertTrue(a.device("vdpa0").isPresent());
            try (FakeProcess again = a.newProcess()) {
                assertEquals(Errno.EBUSY, errno(() -> again.open(NET, RW)), "still open in this kernel");
            }
            pa.close(fd);
            del.get(10, TimeUnit.SECONDS);
            assertFalse(b.device("vdpa0").isPresent());
            b.saveState();
        }
        try (FakeKernel c = shared()) {
            assertFalse(c.device("vdpa0").isPresent());
        }
    }

    @Test
    void aNodeBeingRemovedInTheOtherKernelIsGone() throws Exception {
        try (FakeKernel a = shared(); FakeKernel b = shared(); FakeProcess pa = a.newProcess()) {
            b.deleteDevice("vdpa0"); // deleted, not yet saved: the other kernel still lists it
            assertEquals(Errno.ENOENT, errno(() -> pa.open(NET, RW)));
        }
    }

    @Test
    void nodeRulesHoldInTheNextKernel() {
        try (FakeKernel a = shared()) {
            a.addNodeRule(NodePermissionRule.group("vhost-vdpa-*", 36, 0660));
        }
        try (FakeKernel b = shared(); FakeProcess user = b.newProcess()) {
            user.setCredentials(Credentials.user(1000, 1000).withGroup(36));
            assertEquals(0660, user.stat(NET).mode());
            user.close(user.open(NET, RW));
        }
    }

    private void writeOpenRecord(NodeOpenRecord record) {
        FakeStateStore store = new FakeStateStore(stateFile());
        store.updateState(s -> s.withOpenNodes(List.of(record)));
        assertTrue(Files.exists(store.openNodesFile()));
        assertFalse(Files.exists(stateFile()), "an open is not a change of the devices");
    }
}
