package org.vdpactl.fake;

import org.vdpactl.fake.vfs.KernelConstants;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.vdpactl.fake.vhost.Vhost.errno;

import org.junit.jupiter.api.Test;
import org.vdpactl.sys.Errno;

/**
 * A fake process's RLIMIT_NOFILE and RLIMIT_MEMLOCK: soft and hard as getrlimit(2) gives them,
 * setrlimit(2)'s checks (kernel/sys.c do_prlimit), and the JVM's raise of the soft RLIMIT_NOFILE at
 * start-up (HotSpot's -XX:+MaxFDLimit), which the fake's processes, being this JVM, make by default.
 */
class FakeResourceLimitTest {
    @Test
    void aProcessStartsWithASystemdLoginsLimitRaisedAsHotSpotRaisesIt() {
        try (FakeKernel k = FakeKernel.builder().build(); FakeProcess p = k.newProcess()) {
            assertEquals(new ResourceLimit(524_288, 524_288), p.nofileLimit());
        }
        try (FakeKernel k = FakeKernel.builder().jvmRaisesNofile(false).build(); FakeProcess p = k.newProcess()) {
            assertEquals(ResourceLimit.SYSTEMD_NOFILE, p.nofileLimit());
        }
        try (FakeKernel k = FakeKernel.builder().nofileLimit(new ResourceLimit(256, 4096)).build(); FakeProcess p = k.newProcess()) {
            assertEquals(ResourceLimit.of(4096), p.nofileLimit());
        }
    }

    @Test
    void theSoftLimitIsWhatTheFdTableEnforces() {
        try (FakeKernel k = FakeKernel.builder().nofileLimit(new ResourceLimit(8, 4096)).jvmRaisesNofile(false).build();
             FakeProcess p = k.newProcess()) {
            for (int fd = 3; fd < 8; fd++) {
                assertEquals(fd, p.eventfd(0, 0));
            }
            assertEquals(KernelConstants.EMFILE, errno(() -> p.eventfd(0, 0)));
            p.setNofileLimit(new ResourceLimit(9, 4096));
            assertEquals(8, p.eventfd(0, 0));
            assertEquals(KernelConstants.EMFILE, errno(() -> p.eventfd(0, 0)));
            // lowering it closes nothing: fds above the new limit stay open, new ones are refused
            p.setNofileLimit(new ResourceLimit(5, 4096));
            assertEquals(KernelConstants.EMFILE, errno(() -> p.eventfd(0, 0)));
            p.close(8);
        }
    }

    @Test
    void setrlimitChecksAsTheKernelDoes() {
        try (FakeKernel k = FakeKernel.builder().nofileLimit(new ResourceLimit(1024, 4096)).jvmRaisesNofile(false).build();
             FakeProcess p = k.newProcess()) {
            assertEquals(Errno.EINVAL, errno(() -> p.setNofileLimit(new ResourceLimit(4097, 4096))));
            assertEquals(Errno.EPERM, errno(() -> p.setNofileLimit(ResourceLimit.of(FakeProcess.NR_OPEN + 1))));
            p.setMemlockLimit(ResourceLimit.of(8 << 20));
            p.setCredentials(Credentials.user(65534, 65534));
            assertEquals(Errno.EPERM, errno(() -> p.setNofileLimit(ResourceLimit.of(8192))), "raising the hard limit needs root");
            assertEquals(Errno.EPERM, errno(() -> p.setMemlockLimit(new ResourceLimit(1, ResourceLimit.UNLIMITED))));
            p.setNofileLimit(ResourceLimit.of(4096)); // the soft limit up to the hard one: anyone may
            assertEquals(ResourceLimit.of(4096), p.nofileLimit());
            p.setNofileLimit(ResourceLimit.of(2048)); // lowering the hard limit: anyone may, and cannot take it back
            assertEquals(Errno.EPERM, errno(() -> p.setNofileLimit(ResourceLimit.of(4096))));
            p.setCredentials(Credentials.ROOT);
            p.setNofileLimit(ResourceLimit.of(FakeProcess.NR_OPEN));
            assertEquals(ResourceLimit.of(FakeProcess.NR_OPEN), p.nofileLimit());
        }
    }

    @Test
    void forkCopiesTheLimits() {
        try (FakeKernel k = FakeKernel.builder().build(); FakeProcess p = k.newProcess()) {
            p.setNofileLimit(new ResourceLimit(100, 200));
            p.setMemlockLimit(new ResourceLimit(64 << 10, 1 << 20));
            try (FakeProcess child = p.fork()) {
                assertEquals(new ResourceLimit(100, 200), child.nofileLimit());
                assertEquals(new ResourceLimit(64 << 10, 1 << 20), child.memlockLimit());
            }
        }
    }

    @Test
    void anInheritedLimitNeedsSoftAtMostHard() {
        try (FakeKernel k = FakeKernel.builder().build(); FakeProcess p = k.newProcess()) {
            p.setCredentials(Credentials.user(1000, 1000));
            p.inheritNofileLimit(ResourceLimit.of(FakeProcess.NR_OPEN)); // what a parent (prlimit as root) set
            assertEquals(ResourceLimit.of(FakeProcess.NR_OPEN), p.nofileLimit());
            assertThrows(IllegalArgumentException.class, () -> p.inheritNofileLimit(new ResourceLimit(2, 1)));
        }
    }
}
