package org.vdpactl.cli;

import java.io.File;
import java.nio.file.Path;
import java.util.Optional;
import org.vdpactl.fake.state.StateWrites;
import org.vdpactl.sys.PanamaSyscalls;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.time.Clock;
import org.vdpactl.time.RealClock;
import org.vdpactl.vhost.VhostIoctl;

/** Chooses and opens the backend. */
final class Backends {
    private Backends() {
    }

    static Backend open(BackendKind kind, Path fakeState, Path fakeFaults) {
        return open(kind, fakeState, fakeFaults, null);
    }

    /** {@code fakeKernel}: the --fake-kernel name, or null for the state file's (else 6.12). */
    static Backend open(BackendKind kind, Path fakeState, Path fakeFaults, String fakeKernel) {
        return open(kind, fakeState, fakeFaults, fakeKernel, "real");
    }

    /** {@code fakeClock}: the --fake-clock value, "real" or "virtual". */
    static Backend open(BackendKind kind, Path fakeState, Path fakeFaults, String fakeKernel, String fakeClock) {
        return open(kind, fakeState, fakeFaults, fakeKernel, fakeClock, CallerIdentity.ROOT);
    }

    /** {@code caller}: whose credentials the fake's process has. */
    static Backend open(BackendKind kind, Path fakeState, Path fakeFaults, String fakeKernel, String fakeClock,
            CallerIdentity caller) {
        return open(kind, fakeState, fakeFaults, fakeKernel, fakeClock, caller, StateWrites.CREATE);
    }

    /** {@code writes}: what the fake may create on the state path (less for a {@link ReadOnlyCommand}). */
    static Backend open(BackendKind kind, Path fakeState, Path fakeFaults, String fakeKernel, String fakeClock,
            CallerIdentity caller, StateWrites writes) {
        BackendKind chosen = kind == BackendKind.AUTO ? (kernelHasVdpa() ? BackendKind.KERNEL : BackendKind.FAKE) : kind;
        if (chosen == BackendKind.KERNEL) {
            return kernel();
        }
        return FakeBackend.open(fakeState, fakeFaults, fakeKernel, fakeClock, caller, writes);
    }

    /**
     * The vdpa bus exists (module loaded or built in: the netlink family lives in the same module)
     * or some vhost-vdpa node exists.
     */
    static boolean kernelHasVdpa() {
        if (new File("/sys/bus/vdpa").isDirectory()) {
            return true;
        }
        String[] dev = new File("/dev").list((d, n) -> n.startsWith("vhost-vdpa-"));
        return dev != null && dev.length > 0;
    }

    private static Backend kernel() {
        Syscalls sys = new PanamaSyscalls();
        return new Backend() {
            @Override
            public Syscalls syscalls() {
                return sys;
            }

            @Override
            public Clock clock() {
                return RealClock.INSTANCE;
            }

            @Override
            public boolean simulated() {
                return false;
            }

            @Override
            public String description() {
                return "kernel";
            }

            @Override
            public Optional<FakeKernelControl> fakeKernel() {
                return Optional.empty();
            }

            @Override
            public void close() {
                // the Panama seam holds no resources of its own
            }
        };
    }
}
