package org.vdpactl.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.opentest4j.TestAbortedException;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.fake.netlink.FakeNetlink;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.mgmt.DeviceSpec;
import org.vdpactl.mgmt.FamilyNotAvailableException;
import org.vdpactl.mgmt.MacAddress;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.PanamaSyscalls;
import org.vdpactl.time.Clock;
import org.vdpactl.time.RealClock;
import org.vdpactl.time.VirtualClock;

/** Builds the kernel of one test from its {@link KernelSpec}: a fresh fake, or the running kernel when opted in. */
final class KernelFactory {
    /** The opt-in: {@code -Dvdpactl.testkit.backend=kernel} (or the environment variable VDPACTL_TESTKIT_BACKEND). */
    static final String BACKEND_PROPERTY = "vdpactl.testkit.backend";

    private KernelFactory() {
    }

    static boolean realKernelRequested() {
        String v = System.getProperty(BACKEND_PROPERTY, System.getenv().getOrDefault("VDPACTL_TESTKIT_BACKEND", "fake"));
        return v.equalsIgnoreCase("kernel");
    }

    static FakeKernel fake(KernelSpec spec) {
        Clock clock = spec.clock() == KernelClock.VIRTUAL ? new VirtualClock() : RealClock.INSTANCE;
        FakeKernel.Builder b = FakeKernel.builder().kernel(spec.kernel()).clock(clock);
        for (KernelSpec.FaultSpec f : spec.faults()) {
            int errno = Errno.valueOf(f.errno());
            b.fault(f.occurrence() == 0 ? FaultRule.errnoAlways(f.device(), f.call(), errno)
                    : FaultRule.errnoAt(f.device(), f.call(), f.occurrence(), errno));
        }
        if (!spec.devices().isEmpty()) {
            b.inventory(inventory(spec.devices()));
        }
        FakeKernel kernel = b.build();
        FakeNetlink.install(kernel); // NETLINK_GENERIC sockets with nlctrl and the vdpa family, as on a host with vdpa
        return kernel;
    }

    /** The fake's inventory for the devices: one management device per simulator kind, one PCI function per mlx5 device. */
    static Inventory inventory(List<KernelSpec.DeviceSpec> devices) {
        Map<String, Inventory.Mgmt> mgmt = new LinkedHashMap<>();
        List<Inventory.Device> out = new ArrayList<>();
        int pci = 2;
        for (KernelSpec.DeviceSpec d : devices) {
            String handle;
            switch (d.mgmtdev()) {
                case "vdpasim_net", "vdpasim_blk" -> {
                    handle = d.mgmtdev();
                    mgmt.putIfAbsent(handle, new Inventory.Mgmt(handle, null, handle, null));
                }
                case "mlx5" -> {
                    String function = String.format("0000:08:00.%d", pci++);
                    handle = "pci/" + function;
                    mgmt.put(handle, new Inventory.Mgmt("mlx5", "pci", function, d.preset() == null ? "mlx5-612" : d.preset()));
                }
                default -> throw new IllegalArgumentException("unknown management device '" + d.mgmtdev()
                        + "' for " + d.name() + " (vdpasim_net, vdpasim_blk or mlx5)");
            }
            out.add(new Inventory.Device(d.name(), handle, d.mac(), d.mtu(), d.maxVqPairs(), null, null, null));
        }
        return new Inventory(List.copyOf(mgmt.values()), out);
    }

    static KernelUnderTest underTest(FakeKernel fake) {
        FakeProcess p = fake.newProcess();
        p.recordOpenSites(true);
        List<String> names = fake.inventory().devices().stream().map(Inventory.Device::name).toList();
        return new KernelUnderTest(fake, p, fake.kernelProfile(), fake.clock(), names);
    }

    /**
     * The running kernel, with the spec's devices created through its vdpa family; aborts the test (never
     * passes it) when the host cannot run it.
     */
    static KernelUnderTest real(KernelSpec spec, List<String> created) {
        if (!spec.faults().isEmpty()) {
            throw new TestAbortedException("fault rules need the fake kernel; this test runs on the real one ("
                    + BACKEND_PROPERTY + "=kernel)");
        }
        PanamaSyscalls sys = new PanamaSyscalls();
        String release = release();
        KernelProfile profile = KernelProfiles.forRelease(release).orElse(KernelProfiles.defaultProfile());
        List<String> names = new ArrayList<>();
        try (VdpaNetlink vdpa = VdpaNetlink.open(sys)) {
            for (KernelSpec.DeviceSpec d : spec.devices()) {
                DeviceSpec ds = DeviceSpec.of(d.name(), realMgmtdev(vdpa, d));
                if (d.mac() != null) {
                    ds = ds.withMac(MacAddress.parse(d.mac()));
                }
                ds = ds.withMtu(d.mtu()).withMaxVqPairs(d.maxVqPairs());
                vdpa.addDevice(ds);
                created.add(d.name());
                names.add(d.name());
            }
            if (spec.devices().isEmpty()) {
                vdpa.devices().forEach(i -> names.add(i.name()));
            }
        } catch (FamilyNotAvailableException e) {
            throw new TestAbortedException("the running kernel (" + release + ") has no vdpa netlink family: "
                    + "load the vdpa and vhost_vdpa modules and a vDPA driver, or run on the fake");
        }
        return new KernelUnderTest(null, sys, profile, RealClock.INSTANCE, names);
    }

    private static String realMgmtdev(VdpaNetlink vdpa, KernelSpec.DeviceSpec d) {
        Optional<String> found = vdpa.mgmtDevices().stream().map(m -> m.handle())
                .filter(h -> d.mgmtdev().equals("mlx5") ? h.startsWith("pci/") : h.equals(d.mgmtdev()))
                .findFirst();
        return found.orElseThrow(() -> new TestAbortedException("the running kernel has no management device for "
                + d.name() + " (" + d.mgmtdev() + ")"));
    }

    static void deleteReal(List<String> created) {
        if (created.isEmpty()) {
            return;
        }
        try (VdpaNetlink vdpa = VdpaNetlink.open(new PanamaSyscalls())) {
            for (String name : created.reversed()) {
                vdpa.deleteDevice(name);
            }
        }
    }

    private static String release() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip();
        } catch (java.io.IOException e) {
            return System.getProperty("os.version", "");
        }
    }
}
