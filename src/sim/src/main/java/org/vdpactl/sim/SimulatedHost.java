package org.vdpactl.sim;

import java.util.ArrayList;
import java.util.List;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.ResourceLimit;
import org.vdpactl.fake.device.DriverModelFactory;
import org.vdpactl.fake.device.FakeVdpaDevice;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.fake.mlx5.Mlx5Presets;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.orchestra.Rehearsal;
import org.vdpactl.time.Clock;

/**
 * A private fake kernel with N mlx5-like devices ("mlx5-0", …) of one latency preset and a process
 * to drive them: what {@code --compare} and {@code bench orchestration} rehearse on, and what the
 * orchestration tests build. Nothing of it is shared with the CLI's fake state.
 */
public final class SimulatedHost implements AutoCloseable {
    private final FakeKernel kernel;
    private final FakeProcess process;
    private final List<DeviceTarget> devices = new ArrayList<>();

    private SimulatedHost(FakeKernel kernel) {
        this.kernel = kernel;
        this.process = kernel.newProcess();
        for (FakeVdpaDevice d : FakeInside.bus(kernel).fakeDevices()) {
            devices.add(new DeviceTarget(d.name(), FakeInside.nodePath(d)));
        }
    }

    /** {@code n} devices of {@code pairs} queue pairs on their own mgmtdevs, with the mlx5 latency model of {@code preset}. */
    public static SimulatedHost mlx5(int n, int pairs, String preset, Clock clock, List<FaultRule> faults) {
        Mlx5Presets.preset(preset); // an unknown name fails here, with the list of known ones
        return withModels(n, pairs, preset, clock, DriverModelFactory.standard(), faults);
    }

    /**
     * As {@link #mlx5}, its process started with RLIMIT_NOFILE {@code inheritedNofile} and raising it as
     * HotSpot does (the fake's default is a systemd login's limits).
     */
    public static SimulatedHost mlx5(int n, int pairs, String preset, Clock clock, List<FaultRule> faults,
            ResourceLimit inheritedNofile) {
        Mlx5Presets.preset(preset);
        return build(n, pairs, preset, clock, DriverModelFactory.standard(), faults, inheritedNofile);
    }

    /** As {@link #mlx5}, with the driver models {@code models} gives (tests: fixed costs). */
    public static SimulatedHost withModels(int n, int pairs, String preset, Clock clock, DriverModelFactory models,
            List<FaultRule> faults) {
        return build(n, pairs, preset, clock, models, faults, ResourceLimit.SYSTEMD_NOFILE);
    }

    private static SimulatedHost build(int n, int pairs, String preset, Clock clock, DriverModelFactory models,
            List<FaultRule> faults, ResourceLimit inheritedNofile) {
        List<Inventory.Mgmt> m = new ArrayList<>();
        List<Inventory.Device> d = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String pci = String.format("0000:%02x:%02x.%d", 8 + i / 64, (i / 8) % 8, i % 8);
            m.add(new Inventory.Mgmt("mlx5", "pci", pci, preset));
            d.add(new Inventory.Device("mlx5-" + i, "pci/" + pci, null, null, pairs, null, null, null));
        }
        FakeKernel k = FakeInside.driverModels(FakeInside.inventory(FakeKernel.builder().clock(clock), new Inventory(m, d)), models)
                .faults(faults).nofileLimit(inheritedNofile).build();
        return new SimulatedHost(k);
    }

    public FakeKernel kernel() {
        return kernel;
    }

    public FakeProcess process() {
        return process;
    }

    public Clock clock() {
        return kernel.clock();
    }

    public List<DeviceTarget> devices() {
        return List.copyOf(devices);
    }

    /** A rehearsal driving this host's devices from its process. */
    public Rehearsal rehearsal() {
        return new Rehearsal(process, kernel.clock());
    }

    /** The fake device behind a target. */
    public FakeVdpaDevice device(String name) {
        return FakeInside.device(kernel, name).orElseThrow(() -> new IllegalArgumentException("no device " + name));
    }

    @Override
    public void close() {
        process.close();
        kernel.close();
    }
}
