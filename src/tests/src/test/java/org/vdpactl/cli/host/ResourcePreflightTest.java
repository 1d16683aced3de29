package org.vdpactl.cli.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.cli.CliFailure;
import org.vdpactl.cli.ExitCode;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.ResourceLimit;
import org.vdpactl.fake.state.Inventory;

/** The limits a rehearsal needs, checked and raised before it touches a device. */
class ResourcePreflightTest {
    private static FakeKernel kernel(ResourceLimit nofile) {
        return FakeInside.inventory(FakeKernel.builder(), Inventory.empty()).nofileLimit(nofile).jvmRaisesNofile(false).build();
    }

    @Test
    void aSoftLimitBelowTheNeedIsRaisedToTheHardOne() {
        try (FakeKernel k = kernel(new ResourceLimit(1024, 4096)); FakeProcess p = k.newProcess()) {
            ResourcePreflight.prepare(new FakeProcessLimits(p), 256);
            assertEquals(ResourceLimit.of(4096), p.nofileLimit());
        }
        try (FakeKernel k = kernel(new ResourceLimit(1024, 4096)); FakeProcess p = k.newProcess()) {
            ResourcePreflight.prepare(new FakeProcessLimits(p), 16);
            assertEquals(new ResourceLimit(1024, 4096), p.nofileLimit(), "16 devices fit in 1024: left alone");
        }
    }

    @Test
    void aHardLimitBelowTheNeedIsRefusedWithItsOwnCodeAndWhatToDo() {
        try (FakeKernel k = kernel(ResourceLimit.of(1024)); FakeProcess p = k.newProcess()) {
            p.eventfd(0, 0); // one descriptor already open counts too
            CliFailure f = assertThrows(CliFailure.class, () -> ResourcePreflight.prepare(new FakeProcessLimits(p), 256));
            assertEquals(ExitCode.RESOURCE_LIMIT, f.exitCode());
            assertEquals("rehearsing 256 devices needs about 1298 file descriptors (5 per device) but RLIMIT_NOFILE is 1024"
                    + " (hard 1024), and only root may raise the hard limit (nothing was done): raise it for this shell"
                    + " (ulimit -Hn 2048 as root, or prlimit --nofile=2048:2048 --pid $$), for a service (LimitNOFILE=2048)"
                    + " or a login (nofile in /etc/security/limits.conf), or rehearse at most 201 devices (--devices 201)",
                    f.getMessage());
            assertEquals(1, p.openFds().size(), "nothing opened, nothing changed");
            assertEquals(ResourceLimit.of(1024), p.nofileLimit());
        }
    }

    @Test
    void theDevicesItSuggestsFit() {
        try (FakeKernel k = kernel(ResourceLimit.of(1024)); FakeProcess p = k.newProcess()) {
            ResourcePreflight.prepare(new FakeProcessLimits(p), 201);
            assertThrows(CliFailure.class, () -> ResourcePreflight.prepare(new FakeProcessLimits(p), 202));
        }
    }

    @Test
    void memlocksSoftLimitIsRaisedToItsHardOneBeforePinning() {
        try (FakeKernel k = kernel(ResourceLimit.SYSTEMD_NOFILE); FakeProcess p = k.newProcess()) {
            p.setMemlockLimit(new ResourceLimit(64 << 10, ResourceLimit.UNLIMITED));
            ResourcePreflight.prepare(new FakeProcessLimits(p), 1);
            assertEquals(ResourceLimit.of(ResourceLimit.UNLIMITED), p.memlockLimit());
            assertTrue(p.memlockAllows(1L << 30), "a GiB of guest memory may now be pinned");
        }
    }
}
