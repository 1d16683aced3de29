package org.vdpactl.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.vdpactl.cli.host.FakeProcessLimits;
import org.vdpactl.cli.host.PosixProcessLimits;
import org.vdpactl.cli.host.ProcessLimits;
import org.vdpactl.fake.fault.FaultRuleException;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.Credentials;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.NodePermissionRule;
import org.vdpactl.fake.FakeSyscallException;
import org.vdpactl.fake.device.FaultRuleReach;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.fake.fault.FaultRuleException;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.fault.FaultRules;
import org.vdpactl.fake.netlink.FakeNetlink;
import org.vdpactl.fake.state.FakeStateStore;
import org.vdpactl.fake.state.StateIoException;
import org.vdpactl.fake.state.StateWrites;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.time.Clock;
import org.vdpactl.time.RealClock;
import org.vdpactl.time.VirtualClock;

/**
 * The fake kernel as a CLI backend: devices from the shared state file (read at the start; changes
 * saved by {@link #saveState()} before a command reports them, under the lock only for the save), the vdpa netlink family installed, the real clock so the
 * fake's modelled latencies are real waits and the CLI's wall-clock figures mean something.
 */
final class FakeBackend implements Backend {
    private final FakeKernel kernel;
    private final FakeProcess process;
    private final Path stateFile;

    private FakeBackend(FakeKernel kernel, Path stateFile, CallerIdentity caller) {
        this.kernel = kernel;
        this.stateFile = stateFile;
        FakeNetlink netlink = FakeNetlink.install(kernel);
        this.process = kernel.newProcess();
        // the caller's own credentials: without CAP_NET_ADMIN, dev add/set/del fail with EPERM as on the kernel
        process.setCredentials(new Credentials(caller.uid(), caller.gid(), caller.groups()));
        netlink.setCapNetAdmin(process, caller.capNetAdmin());
        if (caller.uid() != 0) {
            // the fake's devices live in the caller's own state file: their nodes are the caller's, as on a host
            // whose udev rules hand the vhost-vdpa nodes to the user (held for this process only, never saved)
            kernel.addLocalNodeRule(new NodePermissionRule("vhost-vdpa-*", caller.uid(), caller.gid(), 0600));
        }
    }

    static Backend open(Path stateFile, Path faultsFile) {
        return open(stateFile, faultsFile, null);
    }

    static Backend open(Path stateFile, Path faultsFile, String kernelName) {
        return open(stateFile, faultsFile, kernelName, "real");
    }

    static Backend open(Path stateFile, Path faultsFile, String kernelName, String clockName) {
        return open(stateFile, faultsFile, kernelName, clockName, CallerIdentity.ROOT);
    }

    static Backend open(Path stateFile, Path faultsFile, String kernelName, String clockName, CallerIdentity caller) {
        return open(stateFile, faultsFile, kernelName, clockName, caller, StateWrites.CREATE);
    }

    static Backend open(Path stateFile, Path faultsFile, String kernelName, String clockName, CallerIdentity caller,
                        StateWrites writes) {
        Clock clock = switch (clockName == null ? "real" : clockName) {
            case "real" -> RealClock.INSTANCE;
            case "virtual" -> new VirtualClock();
            default -> throw new CliFailure(ExitCode.USAGE, "--fake-clock: unknown clock " + clockName + "; use real or virtual");
        };
        KernelProfile profile = null;
        if (kernelName != null) {
            profile = KernelProfiles.byName(kernelName).orElseThrow(() -> new CliFailure(ExitCode.USAGE,
                    "--fake-kernel: unknown kernel " + kernelName + "; use " + KernelProfiles.accepted()));
        }
        List<FaultRule> faults;
        try {
            faults = faultsFile == null ? List.of() : FaultRules.load(faultsFile);
        } catch (FaultRuleException e) {
            throw CliFailure.from(e, "--fake-faults: " + e.getMessage());
        }
        FakeKernel kernel;
        try {
            kernel = FakeInside.openShared(stateFile, clock, faults, profile, writes);
        } catch (RuntimeException e) {
            throw stateFailure(e);
        }
        try {
            // a rule on an op the devices' drivers never call would be accepted and never fire
            FaultRuleReach.check(faults, FakeInside.bus(kernel), kernel.kernelProfile().version());
        } catch (FaultRuleException e) {
            kernel.close();
            throw CliFailure.from(e, "--fake-faults: " + faultsFile + ": " + e.getMessage());
        }
        try {
            return new FakeBackend(kernel, stateFile, caller);
        } catch (RuntimeException e) {
            kernel.close();
            throw e;
        }
    }

    @Override
    public Syscalls syscalls() {
        return process;
    }

    /**
     * The fake process's limits. The fake process is this JVM, so it takes the real process's
     * RLIMIT_NOFILE (as HotSpot left it: the soft limit raised to the hard one) on the first ask: a host
     * whose hard limit is too low for a rehearsal refuses it on the fake as it would on the kernel.
     */
    @Override
    public Optional<ProcessLimits> processLimits() {
        PosixProcessLimits.current().ifPresent(host -> process.inheritNofileLimit(host.nofile()));
        return Optional.of(new FakeProcessLimits(process));
    }

    @Override
    public Clock clock() {
        return kernel.clock();
    }

    @Override
    public boolean simulated() {
        return true;
    }

    @Override
    public String description() {
        return "fake (simulated devices, Linux " + kernel.kernelProfile().version() + ", state " + stateFile + ")";
    }

    @Override
    public String shareableDescription() {
        return "fake (simulated devices, Linux " + kernel.kernelProfile().version() + ")";
    }

    @Override
    public Optional<FakeKernelControl> fakeKernel() {
        return Optional.of(new FakeKernelControl() {
            @Override
            public KernelProfile kernelProfile() {
                return kernel.kernelProfile();
            }

            @Override
            public Optional<String> preset(String deviceName) {
                return FakeInside.device(kernel, deviceName).map(d -> d.fakeMgmtDevice().preset());
            }

            @Override
            public Optional<String> presetWithReason(String deviceName) {
                return FakeInside.device(kernel, deviceName).map(d -> d.fakeMgmtDevice())
                        .filter(m -> m.preset() != null)
                        .map(m -> m.preset() + ": " + m.presetReason());
            }

            @Override
            public List<String> faultRulesMatchingNone(Collection<String> deviceNames) {
                List<String> out = new ArrayList<>();
                List<FaultRule> rules = kernel.faults().rules();
                for (int i = 0; i < rules.size(); i++) {
                    FaultRule r = rules.get(i);
                    if (deviceNames.stream().noneMatch(r::concerns)) {
                        out.add("rule #" + (i + 1) + " (device \"" + r.device() + "\")");
                    }
                }
                return out;
            }

            @Override
            public void setFunction(String mgmtdev, byte[] mac, Integer mtu, Boolean linkUp) {
                try {
                    if (mac != null) {
                        kernel.setFunctionMac(mgmtdev, mac);
                    }
                    if (mtu != null) {
                        kernel.setFunctionMtu(mgmtdev, mtu);
                    }
                    if (linkUp != null) {
                        kernel.setFunctionLink(mgmtdev, linkUp);
                    }
                } catch (FakeSyscallException e) {
                    throw new CliFailure(ExitCodeMapper.ofErrno(e.errno()), "mgmtdev function set: " + e.reason());
                }
            }
        });
    }

    @Override
    public void saveState() {
        try {
            kernel.saveState();
        } catch (RuntimeException e) {
            throw stateFailure(e);
        }
    }

    @Override
    public void close() {
        try {
            process.close();
        } finally {
            try {
                kernel.close();
            } catch (RuntimeException e) {
                throw stateFailure(e);
            }
        }
    }

    /** The exit code and one line for a problem with the state file; other exceptions unchanged. */
    static RuntimeException stateFailure(RuntimeException e) {
        return switch (e) {
            case FakeStateStore.StateLockedException l -> CliFailure.from(l, l.getMessage());
            case FakeStateStore.CorruptStateException c -> CliFailure.from(c, c.getMessage());
            case FakeStateStore.StateConflictException c -> CliFailure.from(c, c.getMessage());
            case StateIoException io -> CliFailure.from(io, io.getMessage() + "; nothing was saved");
            default -> e;
        };
    }
}
