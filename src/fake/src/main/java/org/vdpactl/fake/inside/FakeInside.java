package org.vdpactl.fake.inside;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import org.vdpactl.abi.KernelProfile;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.bus.Provisioning;
import org.vdpactl.fake.device.DeviceProfile;
import org.vdpactl.fake.device.DriverModelFactory;
import org.vdpactl.fake.device.FakeMgmtDevice;
import org.vdpactl.fake.device.FakeVdpaBus;
import org.vdpactl.fake.device.FakeVdpaDevice;
import org.vdpactl.fake.device.PortFunction;
import org.vdpactl.fake.device.ProfileCatalog;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.fake.mem.AddressSpace;
import org.vdpactl.fake.mem.HostMemory;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.fake.state.StateWrites;
import org.vdpactl.fake.vfs.CharDeviceDriver;
import org.vdpactl.fake.vfs.EventFdFile;
import org.vdpactl.fake.vfs.FakeFile;
import org.vdpactl.fake.vfs.SocketFactory;
import org.vdpactl.time.Clock;

/**
 * The fake kernel's inside as vdpactl's own modules reach it (the CLI's fake backend, the simulator, the test
 * kit, the fake's drivers and the project's tests): the vdpa bus and its devices, the saved inventory, the
 * profiles, host memory, a process's address space and files. {@link FakeKernel} and {@link FakeProcess} are the
 * API of an exported package and name no type of the fake's inside, so that a user on the module path can use
 * every method they show and their javadoc shows no internal type; what only vdpactl needs is here, in a package
 * exported only to vdpactl's modules.
 *
 * <p>The calls go through {@link Access}, which {@link FakeKernel} installs when it is initialised (the JDK's
 * SharedSecrets pattern): the methods stay package-private there.
 */
public final class FakeInside {
    private static volatile Access access;

    private FakeInside() {
    }

    /** What {@link FakeKernel} lends this class; implemented in its package. */
    public interface Access {
        FakeVdpaBus bus(FakeKernel k);

        ProfileCatalog profiles(FakeKernel k);

        HostMemory hostMemory(FakeKernel k);

        Optional<FakeVdpaDevice> device(FakeKernel k, String name);

        CharDeviceDriver charDeviceDriver(FakeKernel k);

        FakeMgmtDevice addManagementDevice(FakeKernel k, String profile, String busName, String devName, String preset);

        FakeVdpaDevice addDevice(FakeKernel k, String mgmtdev, String name, Provisioning provisioning);

        Inventory inventory(FakeKernel k);

        PortFunction function(FakeKernel k, String mgmtdev);

        FakeKernel openShared(Path stateFile, Clock clock, List<FaultRule> faults, KernelProfile kernel, StateWrites writes);

        void registerSocketFactory(FakeKernel k, int domain, int protocol, SocketFactory factory);

        AddressSpace addressSpace(FakeProcess p);

        EventFdFile eventFdOf(FakeProcess p, int fd);

        FakeFile fileOf(FakeProcess p, int fd);

        void profiles(FakeKernel.Builder b, ProfileCatalog catalog);

        void profile(FakeKernel.Builder b, DeviceProfile profile);

        void inventory(FakeKernel.Builder b, Inventory inventory);

        void driverModels(FakeKernel.Builder b, DriverModelFactory factory);

        void hostMemory(FakeKernel.Builder b, HostMemory memory);
    }

    /** Called once by {@link FakeKernel}'s static initialiser. */
    public static void install(Access a) {
        if (access != null) {
            throw new IllegalStateException("the fake kernel's inside is already installed");
        }
        access = Objects.requireNonNull(a);
    }

    private static Access access() {
        Access a = access;
        if (a == null) {
            try {
                // initialising FakeKernel installs the access (only reachable without a kernel for openShared)
                Class.forName(FakeKernel.class.getName(), true, FakeKernel.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            a = access;
        }
        return a;
    }

    /** The vdpa bus: management devices, devices and their nodes. */
    public static FakeVdpaBus bus(FakeKernel k) {
        return access().bus(k);
    }

    /** The device profiles the kernel was built with. */
    public static ProfileCatalog profiles(FakeKernel k) {
        return access().profiles(k);
    }

    /** The host memory behind every mapping and memfd of the kernel's processes. */
    public static HostMemory hostMemory(FakeKernel k) {
        return access().hostMemory(k);
    }

    /** A vdpa device by name with its fake-side API (counters, device state). */
    public static Optional<FakeVdpaDevice> device(FakeKernel k, String name) {
        return access().device(k, name);
    }

    /**
     * The driver of the device nodes as its own type, e.g. {@code VhostVdpaDriver} for its per-device state (IOTLB
     * tables, owner, batch).
     *
     * @throws ClassCastException when the installed driver is not a {@code type}
     */
    public static <T extends CharDeviceDriver> T charDeviceDriver(FakeKernel k, Class<T> type) {
        return type.cast(access().charDeviceDriver(k));
    }

    /** The path of a device's char node, "/dev/vhost-vdpa-N". */
    public static String nodePath(FakeVdpaDevice device) {
        return "/dev/vhost-vdpa-" + device.minor();
    }

    /**
     * Registers a management device of a profile.
     *
     * @param busName "pci" or null
     * @param devName e.g. "0000:08:00.2"; null = the profile's default name
     * @param preset  driver-model preset, null = the profile's default
     */
    public static FakeMgmtDevice addManagementDevice(FakeKernel k, String profile, String busName, String devName,
                                                     String preset) {
        return access().addManagementDevice(k, profile, busName, devName, preset);
    }

    /**
     * Creates a device on a mgmtdev (VDPA_CMD_DEV_NEW without the netlink layer's own checks), charged like a
     * DEV_NEW.
     *
     * @param mgmtdev the mgmtdev's display name ("pci/0000:08:00.2", "vdpasim_net")
     * @throws org.vdpactl.fake.errno.KernelError as the driver refuses (ENOSPC, EINVAL, EOPNOTSUPP, EEXIST)
     */
    public static FakeVdpaDevice addDevice(FakeKernel k, String mgmtdev, String name, Provisioning provisioning) {
        return access().addDevice(k, mgmtdev, name, provisioning);
    }

    /**
     * The PCI function behind a hardware management device (MAC, vport MTU, link set outside vdpa).
     *
     * @throws org.vdpactl.fake.errno.KernelError ENODEV for an unknown mgmtdev, EOPNOTSUPP for a software one
     */
    public static PortFunction function(FakeKernel k, String mgmtdev) {
        return access().function(k, mgmtdev);
    }

    /** The current inventory (what a shared kernel saves). */
    public static Inventory inventory(FakeKernel k) {
        return access().inventory(k);
    }

    /**
     * {@link FakeKernel#openShared(Path, Clock, List, KernelProfile)} for a command that may create only what
     * {@code writes} allows ({@link StateWrites#EXISTING_STATE_ONLY}: a read-only command, which on a path holding
     * no state records no node open and creates nothing).
     */
    public static FakeKernel openShared(Path stateFile, Clock clock, List<FaultRule> faults, KernelProfile kernel,
                                        StateWrites writes) {
        return access().openShared(stateFile, clock, faults, kernel, writes);
    }

    /** Plugs in the socket implementation of (domain, protocol), e.g. AF_NETLINK/NETLINK_GENERIC. */
    public static void registerSocketFactory(FakeKernel k, int domain, int protocol, SocketFactory factory) {
        access().registerSocketFactory(k, domain, protocol, factory);
    }

    /** {@link #registerSocketFactory(FakeKernel, int, int, SocketFactory)} for factories that ignore the type. */
    public static void registerSocketFactory(FakeKernel k, int domain, int protocol, Function<FakeProcess, FakeFile> factory) {
        Objects.requireNonNull(factory);
        registerSocketFactory(k, domain, protocol, (p, type) -> factory.apply(p));
    }

    /** The process's address space: its identity for vhost's owner check and its mappings. */
    public static AddressSpace addressSpace(FakeProcess p) {
        return access().addressSpace(p);
    }

    /** The eventfd behind {@code fd} (EINVAL when it is another kind of file), for tests that signal it. */
    public static EventFdFile eventFdOf(FakeProcess p, int fd) {
        return access().eventFdOf(p, fd);
    }

    /** The file behind {@code fd}. */
    public static FakeFile fileOf(FakeProcess p, int fd) {
        return access().fileOf(p, fd);
    }

    /** Replaces the builder's profile catalog (default {@link ProfileCatalog#builtIn()}). */
    public static FakeKernel.Builder profiles(FakeKernel.Builder b, ProfileCatalog catalog) {
        access().profiles(b, catalog);
        return b;
    }

    /** Adds a profile to the builder's catalog. */
    public static FakeKernel.Builder profile(FakeKernel.Builder b, DeviceProfile profile) {
        access().profile(b, profile);
        return b;
    }

    /** The devices the kernel boots with (default {@link Inventory#defaults()}; {@link Inventory#empty()} for a bare bus). */
    public static FakeKernel.Builder inventory(FakeKernel.Builder b, Inventory inventory) {
        access().inventory(b, inventory);
        return b;
    }

    /** The driver models (default {@link DriverModelFactory#standard()}). */
    public static FakeKernel.Builder driverModels(FakeKernel.Builder b, DriverModelFactory factory) {
        access().driverModels(b, factory);
        return b;
    }

    /** The host memory (default {@link HostMemory#host()}: real lazily-backed anonymous memory). */
    public static FakeKernel.Builder hostMemory(FakeKernel.Builder b, HostMemory memory) {
        access().hostMemory(b, memory);
        return b;
    }
}
