package org.vdpactl.fake;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.vdpactl.fake.device.PortFunction;
import org.vdpactl.fake.state.InventoryMerge;
import org.vdpactl.fake.state.StateWrites;
import org.vdpactl.fake.vfs.CharDeviceDriver;
import org.vdpactl.fake.vfs.CharDeviceModule;
import org.vdpactl.fake.vfs.DevNullFile;
import org.vdpactl.fake.vfs.FakeFile;
import org.vdpactl.fake.vfs.GenericNetlinkModule;
import org.vdpactl.fake.vfs.KernelConstants;
import org.vdpactl.fake.vfs.OpenFile;
import org.vdpactl.fake.vfs.SocketFactory;
import org.vdpactl.fake.vfs.StaticFile;
import org.vdpactl.fake.bus.Provisioning;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.vfs.EventFdFile;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.fake.kernel.KernelDeviceProfiles;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.kernel.Mlx5KernelFacts;
import org.vdpactl.fake.device.DeviceProfile;
import org.vdpactl.fake.device.DriverModelFactory;
import org.vdpactl.fake.device.FakeMgmtDevice;
import org.vdpactl.fake.device.FakeVdpaBus;
import org.vdpactl.fake.device.FakeVdpaDevice;
import org.vdpactl.fake.device.PortFunction;
import org.vdpactl.fake.device.ProfileCatalog;
import org.vdpactl.fake.device.VduseMgmtDevice;
import org.vdpactl.fake.fault.FaultInjector;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.fake.mem.AddressSpace;
import org.vdpactl.fake.mem.HostMemory;
import org.vdpactl.fake.state.FakeStateStore;
import org.vdpactl.fake.state.CounterDeltas;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.fake.state.NodeRuleRecord;
import org.vdpactl.fake.state.SharedState;
import org.vdpactl.fake.state.StateFileNodeOpeners;
import org.vdpactl.fake.device.NodeOpeners;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;
import org.vdpactl.time.Clock;
import org.vdpactl.time.VirtualClock;

/**
 * A userspace Linux kernel at the file-descriptor level, for CI without hardware: processes with fd
 * tables ({@link #newProcess()}), the vdpa bus with vdpa_sim and mlx5-like devices and their
 * /dev/vhost-vdpa-N nodes, eventfd/pipe/memfd files, the sysfs/devfs slice vdpactl reads, a fault
 * injector, and sockets from pluggable factories (the vdpa generic-netlink family is registered by
 * org.vdpactl.fake.netlink).
 *
 * <p>Tests build one with {@link #builder()}; the CLI uses {@link #openShared} so that several
 * invocations see the same devices. Closing a shared kernel writes its state back.
 */
public final class FakeKernel implements AutoCloseable {
    private static final Pattern VHOST_NODE = Pattern.compile("/dev/vhost-vdpa-(\\d+)");
    /** SOCK_MAX: socket types at or above it are EINVAL. */
    private static final int SOCK_MAX = 11;

    private final Clock clock;
    private final ProfileCatalog profiles;
    private final KernelProfile kernelProfile;
    private final FaultInjector faults;
    private final HostMemory hostMemory;
    private final FakeVdpaBus bus;
    private final FakeSysfs sysfs;
    /** RLIMIT_NOFILE of a new process, after its start-up (the JVM's raise, when modelled). */
    private final ResourceLimit nofile;
    private final AtomicInteger nextPid = new AtomicInteger(1000);
    private final Map<Integer, Map<Integer, SocketFactory>> socketFactories = new ConcurrentHashMap<>();
    /** The driver of the /dev/vhost-vdpa-N nodes (vhost_vdpa), from the installed {@link CharDeviceModule}. */
    private final CharDeviceDriver nodeDriver;
    private final FakeStateStore shared;
    private final boolean vduse;
    private final DevNodePermissions nodePermissions = new DevNodePermissions();
    /** The inventory as last loaded from or saved to the shared state: what this kernel's changes are relative to. */
    private Inventory savedBase;
    /** The datapath counters as last loaded or saved: a save adds what was counted since. */
    private Map<String, Map<String, Long>> savedStats;
    /** Records this kernel's node opens in the shared state (null when not shared). */
    private final StateFileNodeOpeners nodeOpeners;
    private boolean saveFailed;
    private volatile boolean closed;

    static {
        FakeInside.install(new Inside());
    }

    private FakeKernel(Builder b, FakeStateStore shared) {
        this.clock = b.clock;
        this.profiles = b.profiles;
        this.kernelProfile = b.kernelProfile;
        this.faults = new FaultInjector(b.clock, b.faults);
        this.hostMemory = b.hostMemory != null ? b.hostMemory : HostMemory.host();
        this.nodeOpeners = shared == null ? null : new StateFileNodeOpeners(shared);
        this.bus = new FakeVdpaBus(b.driverModels, faults, clock, nodeOpeners == null ? NodeOpeners.LOCAL : nodeOpeners);
        faults.linkPort(this::linkFromNetlinkFault);
        this.nodeDriver = CharDeviceModule.installed().init(this);
        this.sysfs = new FakeSysfs(bus, nodePermissions, nodeDriver.major());
        b.nodeRules.forEach(nodePermissions::add);
        this.nofile = b.jvmRaisesNofile ? b.nofile.raisedToHard() : b.nofile;
        this.shared = shared;
        this.vduse = b.vduse;
        install(b.inventory);
        b.vstats.forEach((name, counts) -> bus.fakeDevice(name).ifPresent(d -> d.addDatapathStats(counts)));
        this.savedBase = shared == null ? null : inventory();
        this.savedStats = shared == null ? Map.of() : datapathStats();
    }

    /** A builder with a virtual clock, the built-in profiles, no faults and the default inventory. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The CLI's kernel: state loaded from {@code stateFile} (a missing file starts from
     * the default devices, as {@link #builder()}); {@link #saveState()} (and {@link #close()}) write this kernel's
     * changes back, under the state lock only for that read-modify-write, so other vdpactl processes
     * run meanwhile. A kernel that changes nothing never writes the file.
     *
     * @throws RuntimeException when the file cannot be parsed or is invalid (an unchecked exception of the fake's
     *                          inside, with a message that names the file)
     */
    public static FakeKernel openShared(Path stateFile, Clock clock, List<FaultRule> faults) {
        return openShared(stateFile, clock, faults, null);
    }

    /**
     * {@link #openShared(Path, Clock, List)} speaking a kernel version: {@code kernel} when given
     * (and then recorded in the state file), else the version the state file recorded, else 6.12.
     */
    public static FakeKernel openShared(Path stateFile, Clock clock, List<FaultRule> faults, KernelProfile kernel) {
        return openShared(stateFile, clock, faults, kernel, StateWrites.CREATE);
    }

    /** {@link FakeInside#openShared}. */
    static FakeKernel openShared(Path stateFile, Clock clock, List<FaultRule> faults, KernelProfile kernel,
                                 StateWrites writes) {
        FakeStateStore store = new FakeStateStore(stateFile, FakeStateStore.DEFAULT_LOCK_TIMEOUT, writes);
        SharedState loaded = store.loadState();
        try {
            KernelProfile k = kernel != null ? kernel : store.kernelVersion()
                    .map(v -> KernelProfiles.byName(v).orElseThrow(() -> new FakeStateStore.CorruptStateException(
                            "fake kernel state " + store.file() + " names unknown kernel " + v
                                    + "; use --fake-kernel " + KernelProfiles.accepted())))
                    .orElse(KernelProfiles.defaultProfile());
            store.setKernelVersion(k.version());
            Builder b = builder().clock(clock).faults(faults).inventory(loaded.inventory()).kernel(k);
            loaded.nodeRules().forEach(r -> b.nodeRule(new NodePermissionRule(r.kernelGlob(), r.uid(), r.gid(), r.mode())));
            b.vstats.putAll(loaded.vstats());
            return new FakeKernel(b, store);
        } catch (IllegalArgumentException | KernelError e) {
            throw new FakeStateStore.CorruptStateException("fake kernel state " + store.file()
                    + " does not describe a valid bus (" + e.getMessage() + "); delete it to start from the default devices");
        }
    }

    /**
     * Saves this kernel's changes (devices added, deleted or changed since the last load or save)
     * into the shared state, merged with what other processes saved meanwhile. Does nothing when
     * nothing changed or the kernel is not shared.
     *
     * @throws RuntimeException when one holder keeps the lock too long, the state cannot be written or another
     *                          process created a device of the same name (unchecked exceptions of the fake's inside,
     *                          each with a message for a person)
     */
    public synchronized void saveState() {
        if (shared == null) {
            return;
        }
        Inventory mine = inventory();
        Map<String, Map<String, Long>> stats = datapathStats();
        Map<String, Map<String, Long>> counted = CounterDeltas.since(savedStats, stats);
        if (mine.equals(savedBase) && counted.isEmpty()) {
            return;
        }
        Inventory base = savedBase;
        try {
            shared.updateState(disk -> disk.withInventory(InventoryMerge.apply(disk.inventory(), base, mine))
                    .withVstats(CounterDeltas.add(disk.vstats(), counted)));
        } catch (RuntimeException e) {
            saveFailed = true;
            throw e;
        }
        savedBase = mine;
        savedStats = stats;
    }

    /** The datapath counters of the devices that count something, by device name. */
    private Map<String, Map<String, Long>> datapathStats() {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        for (FakeVdpaDevice d : bus.fakeDevices()) {
            Map<String, Long> s = d.datapathStats();
            if (!s.isEmpty()) {
                out.put(d.name(), s);
            }
        }
        return out;
    }

    /** {@link #openShared(Path, Clock, List)} at the default state file ({@code $XDG_STATE_HOME/vdpactl/fake-state.json}). */
    public static FakeKernel openShared(Clock clock, List<FaultRule> faults) {
        return openShared(FakeStateStore.defaultStateFile(), clock, faults);
    }

    // ------------------------------------------------------------------ processes

    /** A new process with an empty fd table (fds from 3) and its own identity. */
    public FakeProcess newProcess() {
        return new FakeProcess(this, nextPid.getAndIncrement(), new FdTable(1024), new AddressSpace(), nofile);
    }

    FakeProcess forkProcess(FakeProcess parent, FdTable fds, AddressSpace mm) {
        // fork copies the parent's limits (they live in its signal_struct)
        FakeProcess child = new FakeProcess(this, nextPid.getAndIncrement(), fds, mm, parent.nofileLimit());
        child.setMemlockLimit(parent.memlockLimit());
        child.setCredentials(parent.credentials());
        return child;
    }

    /**
     * Applies a udev-like rule to the /dev nodes (existing and future ones), e.g.
     * {@code NodePermissionRule.group("vhost-vdpa-*", 36, 0660)} for a host whose rules give group
     * kvm (36) access; open(2) and stat(2) follow it. Held by this kernel object only, never saved.
     */
    public void addLocalNodeRule(NodePermissionRule rule) {
        nodePermissions.add(rule);
    }

    /**
     * Adds a host rule for every process of this kernel and, on a shared kernel, saves it in the state
     * for the next vdpactl (see {@link #addLocalNodeRule} for one that is not saved).
     */
    public void addNodeRule(NodePermissionRule rule) {
        if (shared != null) {
            // a host's rules hold for every process: the next vdpactl loads it from the state
            NodeRuleRecord saved = new NodeRuleRecord(rule.kernelGlob(), rule.uid(), rule.gid(), rule.mode());
            shared.updateState(s -> {
                List<NodeRuleRecord> rules = new ArrayList<>(s.nodeRules());
                rules.remove(saved);
                rules.add(saved);
                return s.withNodeRules(rules);
            });
        }
        nodePermissions.add(rule);
    }

    // ------------------------------------------------------------------ accessors

    public Clock clock() {
        return clock;
    }

    FakeVdpaBus bus() {
        return bus;
    }

    public FaultInjector faults() {
        return faults;
    }

    /** The Linux version this kernel speaks (default 6.12). */
    public KernelProfile kernelProfile() {
        return kernelProfile;
    }

    ProfileCatalog profiles() {
        return profiles;
    }

    HostMemory hostMemory() {
        return hostMemory;
    }

    FakeSysfs sysfs() {
        return sysfs;
    }

    Optional<FakeVdpaDevice> device(String name) {
        return bus.fakeDevice(name);
    }

    CharDeviceDriver charDeviceDriver() {
        return nodeDriver;
    }

    // ------------------------------------------------------------------ devices

    /**
     * Registers a management device of a profile.
     *
     * @param busName "pci" or null
     * @param devName e.g. "0000:08:00.2"; null = the profile's default name
     * @param preset  driver-model preset, null = the profile's default
     */
    FakeMgmtDevice addManagementDevice(String profile, String busName, String devName, String preset) {
        // a driver on this kernel has only the ops its vdpa_config_ops has
        DeviceProfile p = KernelDeviceProfiles.adapt(kernelProfile, profiles.get(profile));
        String name = devName != null ? devName : p.mgmtdev().devName();
        String reason = Mlx5KernelFacts.DRIVER_MODEL.equals(p.mgmtdev().driverModel())
                ? Mlx5KernelFacts.forKernel(kernelProfile.version()).map(Mlx5KernelFacts::presetReason).orElse(null) : null;
        reason = reason != null ? reason : "the " + profile + " profile's default";
        return bus.addManagementDevice(new FakeMgmtDevice(p, busName != null ? busName : p.mgmtdev().busName(), name,
                preset, reason));
    }

    /**
     * Creates a device on a mgmtdev (VDPA_CMD_DEV_NEW without the netlink layer's own checks).
     *
     * @param mgmtdev the mgmtdev's display name ("pci/0000:08:00.2", "vdpasim_net")
     * @throws KernelError as the driver refuses (ENOSPC, EINVAL, EOPNOTSUPP, EEXIST)
     */
    FakeVdpaDevice addDevice(String mgmtdev, String name, Provisioning provisioning) {
        FakeMgmtDevice m = bus.managementDeviceByDisplayName(mgmtdev)
                .orElseThrow(() -> KernelError.of(Errno.ENODEV, "no management device " + mgmtdev));
        return bus.addDevice(m, name, provisioning, -1, false);
    }

    /**
     * The PCI function behind a hardware management device: the MAC, vport MTU and link the administrator set
     * outside vdpa (devlink port function, the PF's {@code ip link set vf}), which the parent driver reads at dev
     * add. EOPNOTSUPP for a management device with no function (vdpa_sim).
     */
    PortFunction function(String mgmtdev) {
        FakeMgmtDevice m = bus.managementDeviceByDisplayName(mgmtdev)
                .orElseThrow(() -> KernelError.of(Errno.ENODEV, "no management device " + mgmtdev));
        if (m.profile().device().driverFacts() == null) {
            throw KernelError.of(Errno.EOPNOTSUPP, mgmtdev + " is a software device: it has no PCI function");
        }
        return m.function();
    }

    /**
     * {@code devlink port function set ... hw_addr MAC}: the next device added without a MAC gets this one.
     *
     * @throws FakeSyscallException ENODEV for no such management device, EOPNOTSUPP for one without a PCI function
     */
    public void setFunctionMac(String mgmtdev, byte[] mac) {
        functionCall(() -> function(mgmtdev).setMac(mac));
    }

    /** The function's vport MTU, which the next device added without an MTU reports ({@link #setFunctionMac}'s errors). */
    public void setFunctionMtu(String mgmtdev, int mtu) {
        functionCall(() -> function(mgmtdev).setMtu(mtu));
    }

    /**
     * The function's port goes up or down: a port change event for every device on it, which each device's
     * driver handles as it does (mlx5: update_carrier and a config interrupt while its notifier listens).
     * Setting the link it already has is no event ({@link #setFunctionMac}'s errors).
     */
    public void setFunctionLink(String mgmtdev, boolean up) {
        functionCall(() -> {
            function(mgmtdev);
            bus.setFunctionLink(bus.managementDeviceByDisplayName(mgmtdev).orElseThrow(), up);
        });
    }

    /**
     * A link rule fired by a netlink command naming a device (the device side changes its own function's link,
     * {@link FakeVdpaDevice#faultHit}): no device mutex is held there, so the event goes through the bus as
     * {@link #setFunctionLink}'s does. A device that does not exist (yet) or has no function changes nothing.
     */
    private void linkFromNetlinkFault(String device, boolean up) {
        if (device != null) {
            bus.fakeDevice(device).filter(d -> d.spec().driverFacts() != null)
                    .ifPresent(d -> bus.setFunctionLink(d.mgmtDevice(), up));
        }
    }

    /** A function setter, its kernel error as the public API's exception (the errno and the fake's reason). */
    private static void functionCall(Runnable set) {
        try {
            set.run();
        } catch (KernelError e) {
            throw new FakeSyscallException("devlink port function set", e.errno(), e.getMessage());
        }
    }

    /** Deletes a device; blocks while its node is open, as the kernel does. */
    public void deleteDevice(String name) throws InterruptedException {
        FakeVdpaDevice d = bus.fakeDevice(name).orElseThrow(() -> KernelError.of(Errno.ENODEV, "no device " + name));
        bus.deleteDevice(d);
    }

    /** The current inventory (what a shared kernel saves). */
    Inventory inventory() {
        List<Inventory.Mgmt> m = new ArrayList<>();
        for (FakeMgmtDevice f : bus.fakeManagementDevices()) {
            // the named preset only: a defaulted one follows the kernel profile the state is opened with
            m.add(new Inventory.Mgmt(f.profile().name(), f.busName(), f.devName(), f.namedPreset())
                    .withFunction(savedFunction(f.function())));
        }
        List<Inventory.Device> d = new ArrayList<>();
        for (FakeVdpaDevice dev : bus.fakeDevices()) {
            byte[] configMac = null;
            if ("net".equals(dev.spec().config().kind())) {
                byte[] now = dev.configMac();
                byte[] provisioned = dev.provisioning().mac() != null ? dev.provisioning().mac() : new byte[6];
                configMac = Arrays.equals(now, provisioned) ? null : now;
            }
            d.add(Inventory.Device.of(dev.name(), dev.mgmtDevice().displayName(), dev.provisioning(), dev.minor(),
                    configMac, dev.attrMac()));
        }
        return new Inventory(m, d);
    }

    /** What the state file keeps of a function: each attribute that differs from a fresh function's. */
    private static Inventory.Function savedFunction(PortFunction f) {
        return new Inventory.Function(f.hasMac() ? Inventory.formatMac(f.mac()) : null,
                f.mtu() == PortFunction.DEFAULT_MTU ? null : f.mtu(), f.linkUp() ? null : Inventory.Function.DOWN);
    }

    private void install(Inventory inventory) {
        for (Inventory.Mgmt m : inventory.mgmtdevs()) {
            FakeMgmtDevice added = addManagementDevice(m.profile(), m.bus(), m.dev(), m.preset());
            Inventory.Function f = m.function();
            if (f != null) {
                if (added.profile().device().driverFacts() == null) {
                    throw new IllegalArgumentException("management device " + added.displayName()
                            + " is a software device: it has no PCI function to keep a MAC, MTU or link for");
                }
                added.function().restore(f.mac() == null ? new byte[6] : Inventory.parseMac(f.mac()),
                        f.mtu() == null ? PortFunction.DEFAULT_MTU : f.mtu(), f.link() == null);
            }
        }
        if (vduse) {
            // built into the kernel, not part of the inventory: registered at boot after the
            // simulators (the verified dump order is vdpasim_net, vdpasim_blk, vduse)
            bus.addManagementDevice(new VduseMgmtDevice(kernelProfile.vduseClassMask()));
        }
        for (Inventory.Device d : inventory.devices()) {
            FakeMgmtDevice m = bus.managementDeviceByDisplayName(d.mgmtdev()).orElseThrow(
                    () -> new IllegalArgumentException("device " + d.name() + " names unknown mgmtdev " + d.mgmtdev()));
            // what DEV_NEW refuses with EOPNOTSUPP (a MAC or MTU on a block device) cannot be restored either
            long unsupported = d.provisioning().attributeMask() & ~m.provisionableAttributes();
            if (unsupported != 0) {
                throw new IllegalArgumentException("device " + d.name() + " is provisioned with attributes (mask 0x"
                        + Long.toHexString(unsupported) + ") that " + d.mgmtdev() + " does not accept, as dev add would answer EOPNOTSUPP");
            }
            FakeVdpaDevice dev = bus.addDevice(m, d.name(), d.provisioning(), d.minor() == null ? -1 : d.minor(), true);
            // the state as it was, not a new DEV_ATTR_SET: only a MAC that came through one is set through the
            // driver again (7.2's mlx5 adds F_MAC then), a MAC from the CVQ goes back into the config space alone
            if (d.attrMac() != null) {
                dev.restoreAttrMac(Inventory.parseMac(d.attrMac()));
            }
            if (d.configMac() != null) {
                dev.restoreConfigMac(Inventory.parseMac(d.configMac()));
            }
        }
    }

    // ------------------------------------------------------------------ sockets

    /** Plugs in the socket implementation of (domain, protocol), e.g. AF_NETLINK/NETLINK_GENERIC. */
    void registerSocketFactory(int domain, int protocol, SocketFactory factory) {
        socketFactories.computeIfAbsent(domain, k -> new ConcurrentHashMap<>()).put(protocol, Objects.requireNonNull(factory));
    }

    FakeFile createSocket(FakeProcess process, int domain, int type, int protocol) {
        if (domain < 0 || domain >= KernelConstants.AF_MAX) {
            throw KernelError.of(Errno.EAFNOSUPPORT, "address family " + domain);
        }
        int base = type & KernelConstants.SOCK_TYPE_MASK;
        if (base < 0 || base >= SOCK_MAX) {
            throw KernelError.of(Errno.EINVAL, "socket type " + type);
        }
        if ((type & ~KernelConstants.SOCK_TYPE_MASK & ~(libc_h.SOCK_CLOEXEC() | libc_h.SOCK_NONBLOCK())) != 0) {
            throw KernelError.of(Errno.EINVAL, "socket type flags 0x" + Integer.toHexString(type));
        }
        Map<Integer, SocketFactory> family = socketFactories.get(domain);
        if (family == null) {
            throw KernelError.of(Errno.EAFNOSUPPORT, "the fake kernel has no address family " + domain);
        }
        SocketFactory f = family.get(protocol);
        if (f == null) {
            throw KernelError.of(Errno.EPROTONOSUPPORT, "family " + domain + " has no protocol " + protocol);
        }
        return f.create(process, type);
    }

    // ------------------------------------------------------------------ open(2)

    OpenFile openPath(FakeProcess process, String path, int flags) {
        Matcher m = VHOST_NODE.matcher(path);
        if (m.matches()) {
            FakeVdpaDevice d;
            try {
                d = bus.node(Integer.parseInt(m.group(1))).orElse(null);
            } catch (NumberFormatException e) {
                d = null;
            }
            if (d == null) {
                throw KernelError.of(Errno.ENOENT, path + " does not exist");
            }
            DevNodePermissions.checkOpen(path, nodePermissions.of("vhost-vdpa-" + d.minor()), process.credentials(),
                    flags & KernelConstants.O_ACCMODE);
            return new OpenFile(nodeDriver.open(d), flags);
        }
        if (DevNullFile.PATH.equals(path)) {
            return new OpenFile(new DevNullFile(), flags);
        }
        byte[] content = sysfs.contentOrNull(path);
        if (content != null) {
            FileStat st = sysfs.stat(path);
            DevNodePermissions.checkOpen(path, new DevNodePermissions.Attributes(st.uid(), st.gid(), st.mode()),
                    process.credentials(), flags & KernelConstants.O_ACCMODE);
            if ((flags & KernelConstants.O_ACCMODE) != libc_h.O_RDONLY()) {
                throw KernelError.of(Errno.EACCES, path + " is read-only in the fake");
            }
            return new OpenFile(new StaticFile(content), flags);
        }
        sysfs.stat(path); // ENOENT / ENOTDIR as appropriate
        throw KernelError.of(KernelConstants.EISDIR, path + " is a directory");
    }

    // ------------------------------------------------------------------ close

    /** Saves a shared kernel's unsaved changes (unless a save already failed: that was reported). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        boolean retry;
        synchronized (this) {
            retry = !saveFailed;
        }
        try {
            if (retry) {
                saveState();
            }
        } finally {
            if (nodeOpeners != null) {
                nodeOpeners.close();
            }
        }
    }

    // ------------------------------------------------------------------ builder

    /** Configuration of a fake kernel. */
    public static final class Builder {
        private Clock clock = new VirtualClock();
        private ProfileCatalog profiles = ProfileCatalog.builtIn();
        private final List<FaultRule> faults = new ArrayList<>();
        private Inventory inventory = Inventory.defaults();
        private DriverModelFactory driverModels = DriverModelFactory.standard();
        private HostMemory hostMemory;
        private ResourceLimit nofile = ResourceLimit.SYSTEMD_NOFILE;
        private boolean jvmRaisesNofile = true;
        private boolean vduse = true;
        private boolean vdpaNetlink;
        private final List<NodePermissionRule> nodeRules = new ArrayList<>();
        private KernelProfile kernelProfile = KernelProfiles.defaultProfile();
        private final Map<String, Map<String, Long>> vstats = new TreeMap<>();

        private Builder() {
        }

        /**
         * Whether the kernel was built with VDUSE (CONFIG_VDPA_USER): a "vduse" management device
         * that accepts no provisioning attribute and has no VDUSE device to attach. Default true,
         * as on the VM lane's kernel.
         */
        public Builder vduse(boolean builtWithVduse) {
            this.vduse = builtWithVduse;
            return this;
        }

        /** The Linux version to speak; default {@link KernelProfiles#defaultProfile()} (6.12). */
        public Builder kernel(KernelProfile k) {
            this.kernelProfile = Objects.requireNonNull(k);
            return this;
        }

        /** The Linux version to speak by name or alias ("6.1", "6.12", "7.2", "newest"). */
        public Builder kernel(String name) {
            return kernel(KernelProfiles.byName(name).orElseThrow(() -> new IllegalArgumentException(
                    "unknown kernel profile " + name + "; known: " + KernelProfiles.accepted())));
        }

        /** Default: a fresh {@link VirtualClock}. */
        public Builder clock(Clock c) {
            this.clock = Objects.requireNonNull(c);
            return this;
        }

        /** Default: {@link ProfileCatalog#builtIn()}. */
        Builder profiles(ProfileCatalog p) {
            this.profiles = Objects.requireNonNull(p);
            return this;
        }

        /** Adds a profile to the catalog. */
        Builder profile(DeviceProfile p) {
            this.profiles.add(p);
            return this;
        }

        /** Fault rules (added to any given before). */
        public Builder faults(List<FaultRule> rules) {
            this.faults.addAll(rules);
            return this;
        }

        public Builder fault(FaultRule rule) {
            this.faults.add(rule);
            return this;
        }

        /** Default: {@link Inventory#defaults()}; {@link Inventory#empty()} for a bare bus. */
        Builder inventory(Inventory i) {
            this.inventory = Objects.requireNonNull(i);
            return this;
        }

        /** Default: {@link DriverModelFactory#standard()}. */
        Builder driverModels(DriverModelFactory f) {
            this.driverModels = Objects.requireNonNull(f);
            return this;
        }

        /** Default: {@link HostMemory#host()} (real lazily-backed anonymous memory). */
        Builder hostMemory(HostMemory m) {
            this.hostMemory = m;
            return this;
        }

        /** A udev-like rule for /dev nodes (see {@link FakeKernel#addNodeRule}); default none: root:root 0600. */
        public Builder nodeRule(NodePermissionRule rule) {
            this.nodeRules.add(Objects.requireNonNull(rule));
            return this;
        }

        /** RLIMIT_NOFILE of every process, soft and hard {@code limit}. */
        public Builder fdLimit(int limit) {
            return nofileLimit(ResourceLimit.of(limit));
        }

        /**
         * RLIMIT_NOFILE a new process inherits from its parent (default {@link ResourceLimit#SYSTEMD_NOFILE}),
         * before the raise of {@link #jvmRaisesNofile}.
         */
        public Builder nofileLimit(ResourceLimit inherited) {
            this.nofile = Objects.requireNonNull(inherited);
            return this;
        }

        /**
         * Whether a new process raises its soft RLIMIT_NOFILE to the hard limit at start-up, as HotSpot does
         * (-XX:+MaxFDLimit, on by default on Linux; QEMU does the same): default true, since the fake's
         * processes are this JVM. With the default limits a process may then open 524288 fds; with
         * {@code fdLimit(n)} it is n either way.
         */
        public Builder jvmRaisesNofile(boolean raises) {
            this.jvmRaisesNofile = raises;
            return this;
        }

        /**
         * Sockets of AF_NETLINK/NETLINK_GENERIC with nlctrl and the vdpa family, as on a host with the vdpa module;
         * without it, socket(2) of that protocol fails as on a kernel without netlink's generic family.
         */
        public Builder vdpaNetlink() {
            this.vdpaNetlink = true;
            return this;
        }

        public FakeKernel build() {
            FakeKernel k = new FakeKernel(this, null);
            if (vdpaNetlink) {
                GenericNetlinkModule.installed().install(k);
            }
            return k;
        }
    }

    /** The package-private methods above, lent to {@link FakeInside} (vdpactl's own modules). */
    private static final class Inside implements FakeInside.Access {
        @Override
        public FakeVdpaBus bus(FakeKernel k) {
            return k.bus();
        }

        @Override
        public ProfileCatalog profiles(FakeKernel k) {
            return k.profiles();
        }

        @Override
        public HostMemory hostMemory(FakeKernel k) {
            return k.hostMemory();
        }

        @Override
        public Optional<FakeVdpaDevice> device(FakeKernel k, String name) {
            return k.device(name);
        }

        @Override
        public CharDeviceDriver charDeviceDriver(FakeKernel k) {
            return k.charDeviceDriver();
        }

        @Override
        public FakeMgmtDevice addManagementDevice(FakeKernel k, String profile, String busName, String devName, String preset) {
            return k.addManagementDevice(profile, busName, devName, preset);
        }

        @Override
        public FakeVdpaDevice addDevice(FakeKernel k, String mgmtdev, String name, Provisioning provisioning) {
            return k.addDevice(mgmtdev, name, provisioning);
        }

        @Override
        public PortFunction function(FakeKernel k, String mgmtdev) {
            return k.function(mgmtdev);
        }

        @Override
        public Inventory inventory(FakeKernel k) {
            return k.inventory();
        }

        @Override
        public FakeKernel openShared(Path stateFile, Clock clock, List<FaultRule> faults, KernelProfile kernel,
                                     StateWrites writes) {
            return FakeKernel.openShared(stateFile, clock, faults, kernel, writes);
        }

        @Override
        public void registerSocketFactory(FakeKernel k, int domain, int protocol, SocketFactory factory) {
            k.registerSocketFactory(domain, protocol, factory);
        }

        @Override
        public AddressSpace addressSpace(FakeProcess p) {
            return p.addressSpace();
        }

        @Override
        public EventFdFile eventFdOf(FakeProcess p, int fd) {
            return p.eventFdOf(fd);
        }

        @Override
        public FakeFile fileOf(FakeProcess p, int fd) {
            return p.fileOf(fd);
        }

        @Override
        public void profiles(Builder b, ProfileCatalog catalog) {
            b.profiles(catalog);
        }

        @Override
        public void profile(Builder b, DeviceProfile profile) {
            b.profile(profile);
        }

        @Override
        public void inventory(Builder b, Inventory inventory) {
            b.inventory(inventory);
        }

        @Override
        public void driverModels(Builder b, DriverModelFactory factory) {
            b.driverModels(factory);
        }

        @Override
        public void hostMemory(Builder b, HostMemory memory) {
            b.hostMemory(memory);
        }
    }

    @Override
    public String toString() {
        return "fake kernel (Linux " + kernelProfile.version() + ", " + clock + " clock, " + bus.devices().size() + " vdpa devices)";
    }
}
