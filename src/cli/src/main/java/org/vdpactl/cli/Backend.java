package org.vdpactl.cli;

import java.util.Optional;
import org.vdpactl.cli.host.PosixProcessLimits;
import org.vdpactl.cli.host.ProcessLimits;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.time.Clock;

/** An open backend: the seam implementation commands use, its clock, and what it is. */
public interface Backend extends AutoCloseable {
    Syscalls syscalls();

    Clock clock();

    /** True for the fake kernel. */
    boolean simulated();

    /** One line for logs: "kernel" or "fake (state FILE)". */
    String description();

    /**
     * What the figures of a shared report come from, without anything local to this machine (no state
     * file path, which names the user's home directory): "kernel", "fake (simulated devices, Linux 6.12)".
     */
    default String shareableDescription() {
        return description();
    }

    /**
     * The resource limits of the process that opens the devices (this process on the kernel), or empty
     * where they cannot be read. Asking loads JNR-POSIX: only commands that open many devices ask.
     */
    default Optional<ProcessLimits> processLimits() {
        return PosixProcessLimits.current();
    }

    /** The fake kernel behind the seam, for the few fake-only outputs; empty on the kernel. */
    Optional<FakeKernelControl> fakeKernel();

    /**
     * Makes the changes done so far durable before a command reports them: the fake saves its state
     * file (failing with a {@link CliFailure}); the kernel has nothing to do.
     */
    default void saveState() {
    }

    @Override
    void close();
}
