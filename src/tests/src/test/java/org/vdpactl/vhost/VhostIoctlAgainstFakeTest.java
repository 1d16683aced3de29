package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.vdpactl.abi.UapiIoctl;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.testkit.FakeKernelTest;

/**
 * The client's ioctl table is checked against the fake kernel, not shared with it: the fake
 * dispatches on the request numbers of the generated bindings, so a wrong number in
 * {@link VhostIoctl} reaches the fake's unknown-command path (ENOTTY) instead of the handler the
 * client meant. The fake runs the 6.12 profile (its default), one fresh kernel per test from the test kit,
 * which also fails a test that leaves the node open.
 */
@FakeKernelTest
class VhostIoctlAgainstFakeTest {
    /**
     * What vhost-vdpa answers ENOTTY on 6.12 whatever the argument (docs/spec/kernel-abi.md §3.2
     * and §4: no dirty log, RESET_OWNER/worker/FEATURES_ARRAY not handled, VRING_ENDIAN only with
     * CONFIG_VHOST_CROSS_ENDIAN_LEGACY).
     */
    private static final Set<VhostIoctl> NOT_HANDLED_BY_VHOST_VDPA = Set.of(VhostIoctl.SET_LOG_BASE,
            VhostIoctl.SET_LOG_FD, VhostIoctl.RESET_OWNER, VhostIoctl.NEW_WORKER, VhostIoctl.FREE_WORKER,
            VhostIoctl.ATTACH_VRING_WORKER, VhostIoctl.GET_VRING_WORKER, VhostIoctl.SET_VRING_ENDIAN,
            VhostIoctl.GET_VRING_ENDIAN, VhostIoctl.GET_FEATURES_ARRAY, VhostIoctl.SET_FEATURES_ARRAY);

    @Test
    void theClientNamesExactlyTheIoctlsOfTheHeaders() {
        Set<String> client = new TreeSet<>();
        Arrays.stream(VhostIoctl.values()).forEach(io -> client.add(io.kernelName()));
        Set<String> abi = new TreeSet<>();
        Arrays.stream(UapiIoctl.values()).forEach(io -> abi.add(io.name()));
        assertEquals(abi, client);
    }

    @ParameterizedTest
    @EnumSource(VhostIoctl.class)
    void theFakeAnswersTheClientsNumberWithTheHandlerItMeans(VhostIoctl io, Syscalls p) {
        int errno = errnoOf(p, io);
        if (NOT_HANDLED_BY_VHOST_VDPA.contains(io)) {
            assertEquals(Errno.ENOTTY, errno, io.kernelName() + " is not a vhost-vdpa ioctl on 6.12");
        } else {
            assertNotEquals(Errno.ENOTTY, errno, () -> String.format("the fake does not know %s (0x%08X): %s",
                    io.kernelName(), io.code(), Errno.name(errno)));
        }
    }

    /**
     * The errno of one call by the owner with a zeroed argument (0 when it succeeds). Taking
     * ownership must succeed (a wrong SET_OWNER number fails here with EPERM); SET_OWNER itself is
     * then asked a second time (EBUSY).
     */
    private static int errnoOf(Syscalls p, VhostIoctl io) {
        int fd = p.open("/dev/vhost-vdpa-0", libc_h.O_RDWR());
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(0, p.ioctl(fd, VhostIoctl.SET_OWNER.code(), MemorySegment.NULL));
            MemorySegment arg = arena.allocate(4096);
            p.ioctl(fd, io.code(), arg);
            return 0;
        } catch (SyscallException e) {
            return e.errno();
        } finally {
            p.close(fd);
        }
    }
}
