package org.vdpactl.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a test asks of its kernel, from {@link FakeKernelTest} or from {@link VdpaKernelExtension#builder()}:
 * the release, the devices, the fault rules and the clock.
 *
 * @param kernel  release or alias ("6.1", "6.12", "7.2", "newest")
 * @param devices the devices present; empty: the fake's default inventory
 * @param faults  fault rules
 * @param clock   virtual or real
 */
public record KernelSpec(String kernel, List<DeviceSpec> devices, List<FaultSpec> faults, KernelClock clock) {
    public KernelSpec {
        Objects.requireNonNull(kernel, "kernel");
        devices = List.copyOf(devices);
        faults = List.copyOf(faults);
        Objects.requireNonNull(clock, "clock");
    }

    /**
     * One device.
     *
     * @param name       vdpa device name
     * @param mgmtdev    "vdpasim_net", "vdpasim_blk" or "mlx5"
     * @param preset     mlx5 latency preset, or null for the default
     * @param mac        provisioned MAC, or null
     * @param mtu        provisioned MTU, or null
     * @param maxVqPairs provisioned queue pairs, or null
     */
    public record DeviceSpec(String name, String mgmtdev, String preset, String mac, Integer mtu, Integer maxVqPairs) {
        public DeviceSpec {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(mgmtdev, "mgmtdev");
        }

        /** A device with no provisioning. */
        public static DeviceSpec of(String name, String mgmtdev) {
            return new DeviceSpec(name, mgmtdev, null, null, null, null);
        }

        static DeviceSpec of(Device d) {
            return new DeviceSpec(d.name(), d.mgmtdev(), d.preset().isEmpty() ? null : d.preset(),
                    d.mac().isEmpty() ? null : d.mac(), d.mtu() == 0 ? null : d.mtu(),
                    d.maxVqPairs() == 0 ? null : d.maxVqPairs());
        }
    }

    /**
     * One fault rule.
     *
     * @param device     device name or glob
     * @param call       call name or glob
     * @param errno      errno symbol
     * @param occurrence the failing match (1-based), 0 for every one
     */
    public record FaultSpec(String device, String call, String errno, long occurrence) {
        static FaultSpec of(Fault f) {
            return new FaultSpec(f.device(), f.call(), f.errno(), f.occurrence());
        }
    }

    static KernelSpec of(FakeKernelTest a) {
        List<DeviceSpec> devices = new ArrayList<>();
        for (Device d : a.devices()) {
            devices.add(DeviceSpec.of(d));
        }
        List<FaultSpec> faults = new ArrayList<>();
        for (Fault f : a.faults()) {
            faults.add(FaultSpec.of(f));
        }
        return new KernelSpec(a.kernel(), devices, faults, a.clock());
    }
}
