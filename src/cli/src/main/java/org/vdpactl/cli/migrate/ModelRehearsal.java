package org.vdpactl.cli.migrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.cli.rehearse.DeviceSelection;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.mgmt.DeviceSpec;
import org.vdpactl.mgmt.MacAddress;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.orchestra.Rehearsal;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Strategy;
import org.vdpactl.orchestra.WindowMode;
import org.vdpactl.time.VirtualClock;

/**
 * {@code migrate check --rehearse} for a device known only from a facts document: the rehearsal runs on the
 * fake's model of that device, a fake kernel of the host's kernel profile (virtual clock) with one device
 * provisioned as the facts say (its driver's management device: vdpasim_net, or an mlx5 function with the
 * host's preset; its features, MAC, MTU and max queue pairs), so its figure is simulated and says what was
 * modelled. A stop-and-copy needs both devices on one kernel: it is rehearsed when both hosts share a kernel
 * profile. The user's own fake state is never touched: each rehearsal builds its kernel and closes it.
 */
final class ModelRehearsal {
    private static final String SOURCE = "model-src";
    private static final String DEST = "model-dst";

    private ModelRehearsal() {
    }

    /** A figure, with what it was rehearsed on; or why nothing could be rehearsed. */
    record Outcome(Double downtimeMs, String model, String whyNot) {
    }

    /** One model device: which host's device, as what. */
    private record Modelled(MigrationFacts host, MigrationFacts.DeviceFacts device) {
        String profile() {
            return host.kernel() == null ? null : host.kernel().profile();
        }
    }

    /**
     * Rehearses {@code command}'s strategy and window (one iteration, memory as given) on the model of
     * {@code source}, and of {@code dest} when the command copies to a destination (dest null otherwise).
     */
    static Outcome run(MigrationFacts srcHost, MigrationFacts.DeviceFacts source, MigrationFacts dstHost,
                       MigrationFacts.DeviceFacts dest, String command, GuestMemoryLayout layout) {
        List<Modelled> devices = new ArrayList<>();
        devices.add(new Modelled(srcHost, source));
        if (dest != null) {
            devices.add(new Modelled(dstHost, dest));
        }
        for (Modelled m : devices) {
            if (m.profile() == null) {
                return new Outcome(null, null, m.host().host() + "'s kernel matches no profile of the fake"
                        + (m.host().kernel() == null ? "" : " (" + m.host().kernel().release() + ")") + ": it has no model to rehearse on");
            }
            if (mgmtdev(m.device(), 0).isEmpty()) {
                return new Outcome(null, null, "the fake has no model of " + m.device().name() + "'s driver ("
                        + m.device().driver() + ")");
            }
        }
        if (dest != null && !devices.get(0).profile().equals(devices.get(1).profile())) {
            return new Outcome(null, null, "the hosts' kernel profiles differ (" + devices.get(0).profile() + ", "
                    + devices.get(1).profile() + "): the fake models one kernel at a time; the switch in place is rehearsed on each");
        }
        FakeKernel kernel = FakeKernel.builder().kernel(devices.get(0).profile()).clock(new VirtualClock()).vdpaNetlink().build();
        try (FakeProcess process = kernel.newProcess()) {
            List<String> described = new ArrayList<>();
            for (int i = 0; i < devices.size(); i++) {
                Modelled m = devices.get(i);
                String name = i == 0 ? SOURCE : DEST;
                String mgmt = mgmtdev(m.device(), i).orElseThrow();
                String preset = null;
                if (mgmt.startsWith("pci/")) {
                    preset = mlx5Preset(m.host());
                    FakeInside.addManagementDevice(kernel, "mlx5", "pci", mgmt.substring("pci/".length()), preset);
                }
                DeviceSpec spec = DeviceSpec.of(name, mgmt).withDeviceFeatures(m.device().featureBits());
                if (m.device().mac() != null) {
                    spec = spec.withMac(MacAddress.parse(m.device().mac()));
                }
                if (m.device().mtu() != null) {
                    spec = spec.withMtu(m.device().mtu());
                }
                if (mgmt.startsWith("pci/") && m.device().maxVqPairs() != null) {
                    spec = spec.withMaxVqPairs(m.device().maxVqPairs());
                }
                try (VdpaNetlink nl = VdpaNetlink.open(process)) {
                    nl.addDevice(spec);
                } catch (RuntimeException e) {
                    return new Outcome(null, null, "the fake's model refused " + m.device().name() + "'s provisioning: " + e.getMessage());
                }
                described.add(m.host().host() + "'s " + m.device().name() + " (kernel profile " + m.profile() + ", " + m.device().driver()
                        + (preset != null ? " preset " + preset : m.device().driver().equals("mlx5_vdpa") ? " with the profile's preset" : "")
                        + ", " + (m.device().maxVqPairs() == null ? 1 : m.device().maxVqPairs()) + " queue pair(s), features "
                        + m.device().features() + ")");
            }
            Strategy strategy = Strategy.parse(word(command, "--strategy", "parallel"));
            WindowMode window = WindowMode.parse(word(command, "--window", "migration"));
            List<DeviceTarget> sources = List.of(DeviceSelection.resolve(process, SOURCE));
            RehearsalPlan.Builder plan = RehearsalPlan.builder(sources).strategy(strategy).iterations(1).queuePairs(0).memory(layout)
                    .window(window);
            if (dest != null) {
                plan.destinations(List.of(DeviceSelection.resolve(process, DEST)));
            }
            RehearsalResult result = new Rehearsal(process, kernel.clock()).run(plan.build());
            String model = "simulated on the fake's model of " + String.join(" and ", described);
            if (!result.completed() || result.lastIteration() == null) {
                return new Outcome(null, model, "the rehearsal on the model did not complete: " + (result.failure() == null
                        ? result.outcome() : result.failure().summary()));
            }
            return new Outcome(result.lastIteration().downtimeNanos() / 1e6, model, null);
        } finally {
            kernel.close();
        }
    }

    /**
     * The fake's management device for the index-th modelled device's driver: vdpasim_net, or a ConnectX-like
     * function of its own for mlx5 (one device per function, beside the default inventory's 0000:08:00.x).
     */
    private static Optional<String> mgmtdev(MigrationFacts.DeviceFacts d, int index) {
        if ("vdpa_sim".equals(d.driver()) && "net".equals(d.type())) {
            return Optional.of("vdpasim_net");
        }
        if ("mlx5_vdpa".equals(d.driver())) {
            return Optional.of("pci/0000:09:00." + (2 + index));
        }
        return Optional.empty();
    }

    /**
     * The mlx5 preset a fake host's facts name (its document's backend lists the presets of its devices), when
     * there is exactly one; else null: the kernel profile's own preset, as on a host with that kernel.
     */
    private static String mlx5Preset(MigrationFacts host) {
        if (host.backend() == null || host.backend().presets() == null) {
            return null;
        }
        List<String> mlx5 = host.backend().presets().stream().filter(p -> p != null && p.startsWith("mlx5")).distinct().toList();
        return mlx5.size() == 1 ? mlx5.getFirst() : null;
    }

    static String word(String command, String option, String otherwise) {
        String[] w = command.split(" ");
        for (int i = 0; i + 1 < w.length; i++) {
            if (w[i].equals(option)) {
                return w[i + 1];
            }
        }
        return otherwise;
    }
}
