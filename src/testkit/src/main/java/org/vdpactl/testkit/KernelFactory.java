package org.vdpactl.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.fault.FaultRule;
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
    /**
     * Under the opt-in, what a host that cannot run the test gets: {@code true} (the default) fails the test,
     * {@code false} reports it as aborted (skipped). The property, else VDPACTL_TESTKIT_REQUIRE_KERNEL.
     */
    static final String REQUIRE_KERNEL_PROPERTY = "vdpactl.testkit.requireKernel";
    private static final List<String> BACKENDS = List.of("fake", "kernel");

    private KernelFactory() {
    }

    /**
     * True when the tests run on the running kernel. A value other than "fake" or "kernel" is refused: a typo
     * ("kernal") would otherwise run everything on the fake and pass.
     */
    static boolean realKernelRequested() {
        String v = setting(BACKEND_PROPERTY, "VDPACTL_TESTKIT_BACKEND", "fake");
        if (!BACKENDS.contains(v)) {
            throw new ExtensionConfigurationException(BACKEND_PROPERTY + " (or VDPACTL_TESTKIT_BACKEND) = \"" + v
                    + "\" is not a backend: give \"fake\" (the default) or \"kernel\"");
        }
        return v.equals("kernel");
    }

    /**
     * Whether a host without what the test needs (the vdpa family, a management device) fails the test rather
     * than aborting it. Failing is the default: whoever sets the opt-in asked for the real kernel, and a build
     * whose every test was skipped is green (Testcontainers fails without Docker by default too); a job that runs
     * where vDPA may be missing says {@code -Dvdpactl.testkit.requireKernel=false}.
     */
    static boolean realKernelRequired() {
        String v = setting(REQUIRE_KERNEL_PROPERTY, "VDPACTL_TESTKIT_REQUIRE_KERNEL", "true");
        if (!v.equals("true") && !v.equals("false")) {
            throw new ExtensionConfigurationException(REQUIRE_KERNEL_PROPERTY + " (or VDPACTL_TESTKIT_REQUIRE_KERNEL) = \""
                    + v + "\" is not true or false");
        }
        return v.equals("true");
    }

    private static String setting(String property, String env, String dflt) {
        String v = System.getProperty(property);
        if (v == null) {
            v = System.getenv(env);
        }
        return v == null ? dflt : v;
    }

    /**
     * The host cannot run the test: throws the failure (an {@link AssertionFailedError}, the test fails), or
     * returns the abort to throw when the user allowed it (requireKernel=false).
     */
    private static TestAbortedException unavailable(String reason) {
        if (realKernelRequired()) {
            throw new AssertionFailedError(reason + " (" + BACKEND_PROPERTY + "=kernel requires it; "
                    + REQUIRE_KERNEL_PROPERTY + "=false reports such tests as skipped instead)");
        }
        return new TestAbortedException(reason);
    }

    static FakeKernel fake(KernelSpec spec) {
        Clock clock = spec.clock() == KernelClock.VIRTUAL ? new VirtualClock() : RealClock.INSTANCE;
        // NETLINK_GENERIC sockets with nlctrl and the vdpa family, as on a host with vdpa
        FakeKernel.Builder b = FakeKernel.builder().kernel(spec.kernel()).clock(clock).vdpaNetlink();
        for (KernelSpec.FaultSpec f : spec.faults()) {
            int errno = Errno.valueOf(f.errno());
            b.fault(f.occurrence() == 0 ? FaultRule.errnoAlways(f.device(), f.call(), errno)
                    : FaultRule.errnoAt(f.device(), f.call(), f.occurrence(), errno));
        }
        if (!spec.devices().isEmpty()) {
            FakeInside.inventory(b, inventory(spec.devices()));
        }
        return b.build();
    }

    /**
     * The fake's inventory for the devices: one management device per simulator kind, one PCI function per mlx5
     * device ({@link #mlx5Function}). An mlx5 device without a preset gets the kernel release's mlx5_vdpa, as the
     * default inventory does (mlx5-61 on 6.1, mlx5-612 later).
     */
    static Inventory inventory(List<KernelSpec.DeviceSpec> devices) {
        Map<String, Inventory.Mgmt> mgmt = new LinkedHashMap<>();
        List<Inventory.Device> out = new ArrayList<>();
        int mlx5 = 0;
        for (KernelSpec.DeviceSpec d : devices) {
            String handle;
            switch (d.mgmtdev()) {
                case "vdpasim_net", "vdpasim_blk" -> {
                    handle = d.mgmtdev();
                    mgmt.putIfAbsent(handle, new Inventory.Mgmt(handle, null, handle, null));
                }
                case "mlx5" -> {
                    String function = mlx5Function(mlx5++);
                    handle = "pci/" + function;
                    mgmt.put(handle, new Inventory.Mgmt("mlx5", "pci", function, d.preset()));
                }
                default -> throw new IllegalArgumentException("unknown management device '" + d.mgmtdev()
                        + "' for " + d.name() + " (vdpasim_net, vdpasim_blk or mlx5)");
            }
            out.add(new Inventory.Device(d.name(), handle, d.mac(), d.mtu(), d.maxVqPairs(), null, null, null));
        }
        return new Inventory(List.copyOf(mgmt.values()), out);
    }

    /**
     * The PCI function of the {@code n}th (0-based) declared mlx5 device, as the default inventory numbers them:
     * 0000:08:00.2, .3, … .7, then 0000:08:01.0 (a function number has 3 bits).
     */
    static String mlx5Function(int n) {
        int slot = (n + 2) / 8;
        int function = (n + 2) % 8;
        return String.format("0000:08:%02x.%d", slot, function);
    }

    static KernelUnderTest underTest(FakeKernel fake) {
        FakeProcess p = fake.newProcess();
        p.recordOpenSites(true);
        List<String> names = FakeInside.inventory(fake).devices().stream().map(Inventory.Device::name).toList();
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
            throw unavailable("the running kernel (" + release + ") has no vdpa netlink family: "
                    + "load the vdpa and vhost_vdpa modules and a vDPA driver, or run on the fake");
        }
        return new KernelUnderTest(null, sys, profile, RealClock.INSTANCE, names);
    }

    private static String realMgmtdev(VdpaNetlink vdpa, KernelSpec.DeviceSpec d) {
        Optional<String> found = vdpa.mgmtDevices().stream().map(m -> m.handle())
                .filter(h -> d.mgmtdev().equals("mlx5") ? h.startsWith("pci/") : h.equals(d.mgmtdev()))
                .findFirst();
        return found.orElseThrow(() -> unavailable("the running kernel has no management device for "
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
        } catch (IOException e) {
            return System.getProperty("os.version", "");
        }
    }
}
