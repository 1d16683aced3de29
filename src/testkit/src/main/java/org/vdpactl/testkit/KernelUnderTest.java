package org.vdpactl.testkit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import org.vdpactl.abi.KernelProfile;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.time.Clock;
import org.vdpactl.vhost.VhostDeviceNodes;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * The kernel one test runs against: a fresh fake, or the running kernel when opted in. Handles opened
 * through it ({@link #openDevice}, {@link #netlink()}) are the kit's: it closes them after the test, before
 * it checks that the test itself left no descriptor open.
 */
public final class KernelUnderTest {
    private final FakeKernel fake;
    private final Syscalls sys;
    private final KernelProfile profile;
    private final Clock clock;
    private final List<String> devices;
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private final List<FakeProcess> processes = new ArrayList<>();

    KernelUnderTest(FakeKernel fake, Syscalls sys, KernelProfile profile, Clock clock, List<String> devices) {
        this.fake = fake;
        this.sys = sys;
        this.profile = profile;
        this.clock = clock;
        this.devices = List.copyOf(devices);
        if (sys instanceof FakeProcess p) {
            processes.add(p);
        }
    }

    /** True when the test runs on the running kernel, not on the fake. */
    public boolean isReal() {
        return fake == null;
    }

    /** The test's process: every system call of the code under test goes through it. */
    public Syscalls syscalls() {
        return sys;
    }

    /** The fake kernel, to inspect or change behind the code's back; empty on the real kernel. */
    public Optional<FakeKernel> fake() {
        return Optional.ofNullable(fake);
    }

    /** The facts of the kernel release (the fake's profile, or the running release's). */
    public KernelProfile profile() {
        return profile;
    }

    /** The clock the kernel's latencies run on. */
    public Clock clock() {
        return clock;
    }

    /** The names of the devices present when the test started. */
    public List<String> devices() {
        return devices;
    }

    /** Another process of the same fake kernel (its own fd table), checked for leaks like the first. */
    public Syscalls newProcess() {
        if (fake == null) {
            throw new UnsupportedOperationException("a second process needs the fake kernel");
        }
        FakeProcess p = fake.newProcess();
        p.recordOpenSites(true);
        processes.add(p);
        return p;
    }

    /** Opens a device's vhost-vdpa node (by vdpa name or path); the kit closes it after the test. */
    public VhostVdpaDevice openDevice(String name) {
        VhostVdpaDevice d = VhostVdpaDevice.open(sys, VhostDeviceNodes.resolve(sys, name).path());
        opened.push(d);
        return d;
    }

    /** A vdpa netlink handle; the kit closes it after the test. */
    public VdpaNetlink netlink() {
        VdpaNetlink n = VdpaNetlink.open(sys);
        opened.push(n);
        return n;
    }

    List<FakeProcess> processes() {
        return processes;
    }

    /** Closes what the kit opened, newest first; the first failure is rethrown after all were tried. */
    void closeKitHandles() {
        RuntimeException first = null;
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
