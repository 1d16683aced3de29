package org.vdpactl.orchestra;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.fake.model.DriverModel;
import org.vdpactl.sim.SimulatedHost;
import org.vdpactl.time.Clock;
import org.vdpactl.time.VirtualClock;

/** A {@link SimulatedHost} on a virtual clock, with the fields the orchestration tests read. */
final class FakeRig implements AutoCloseable {
    final SimulatedHost host;
    final FakeKernel kernel;
    final FakeProcess process;
    final Clock clock;
    final List<DeviceTarget> devices;

    private FakeRig(SimulatedHost host) {
        this.host = host;
        this.kernel = host.kernel();
        this.process = host.process();
        this.clock = host.clock();
        this.devices = host.devices();
    }

    /** {@code n} mlx5 devices "mlx5-0".. with {@code pairs} queue pairs and the latency model of {@code preset}. */
    static FakeRig mlx5(int n, int pairs, String preset, FaultRule... faults) {
        return new FakeRig(SimulatedHost.mlx5(n, pairs, preset, new VirtualClock(), List.of(faults)));
    }

    /** {@code n} mlx5-profile devices whose driver ops cost what {@code models} says (device index → model). */
    static FakeRig withModels(int n, int pairs, IntFunction<DriverModel> models, FaultRule... faults) {
        AtomicInteger next = new AtomicInteger();
        return new FakeRig(SimulatedHost.withModels(n, pairs, "mlx5-612", new VirtualClock(),
                (profile, preset, vqPairs, clock) -> models.apply(next.getAndIncrement()), List.of(faults)));
    }

    DeviceTarget device(String name) {
        return devices.stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
    }

    Rehearsal rehearsal() {
        return host.rehearsal();
    }

    @Override
    public void close() {
        host.close();
    }
}
