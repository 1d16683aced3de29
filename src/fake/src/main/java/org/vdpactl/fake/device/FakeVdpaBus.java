package org.vdpactl.fake.device;

import java.util.Arrays;
import org.vdpactl.abi.MacroValues;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.bus.MgmtDevice;
import org.vdpactl.fake.bus.Provisioning;
import org.vdpactl.fake.fault.FaultInjector;
import org.vdpactl.sys.Errno;
import org.vdpactl.time.Clock;

/**
 * The fake vdpa bus (drivers/vdpa/vdpa.c): management devices in registration order, devices by
 * global name in creation order, char-device minors allocated lowest-free. One read-write lock plays
 * the kernel's {@code vdpa_dev_lock}: DEV_NEW/DEL take it exclusively, and a DEV_DEL of a device whose
 * node is open keeps holding it while it waits for the close, exactly as the kernel blocks every
 * other vdpa netlink request meanwhile. The other devices' nodes (devtmpfs) stay reachable; the
 * deleted device's node is gone from the start of that wait, as vhost_vdpa_remove removes it first.
 */
public final class FakeVdpaBus {
    private static final Logger LOG = LoggerFactory.getLogger(FakeVdpaBus.class);
    /** VHOST_VDPA_DEV_MAX = 1 << MINORBITS. */
    static final int MINOR_LIMIT = 1 << 20;

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final List<MgmtDevice> mgmtdevs = new ArrayList<>();
    private final Map<String, FakeVdpaDevice> devices = new LinkedHashMap<>();
    private final BitSet minors = new BitSet();
    private final Map<Integer, FakeVdpaDevice> nodes = new ConcurrentSkipListMap<>();
    private final DriverModelFactory models;
    private final FaultInjector faults;
    private final Clock clock;
    private final NodeOpeners otherOpeners;

    public FakeVdpaBus(DriverModelFactory models, FaultInjector faults, Clock clock) {
        this(models, faults, clock, NodeOpeners.LOCAL);
    }

    /** A bus whose nodes may also be opened by other processes sharing the state ({@code others}). */
    public FakeVdpaBus(DriverModelFactory models, FaultInjector faults, Clock clock, NodeOpeners others) {
        this.otherOpeners = others;
        this.models = models;
        this.faults = faults;
        this.clock = clock;
    }

    /** Registers a management device (module load / PCI probe); a {@link VduseMgmtDevice} is one too. */
    public <M extends MgmtDevice> M addManagementDevice(M m) {
        lock.writeLock().lock();
        try {
            for (MgmtDevice other : mgmtdevs) {
                if (Objects.equals(other.busName(), m.busName()) && other.devName().equals(m.devName())) {
                    throw new IllegalArgumentException("management device " + m.displayName() + " already exists");
                }
            }
            mgmtdevs.add(m);
            return m;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Registered management devices in registration order. */
    public List<MgmtDevice> managementDevices() {
        lock.readLock().lock();
        try {
            return List.copyOf(mgmtdevs);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Looks a management device up by (bus, dev) with the kernel's rule: a null bus matches only bus-less mgmtdevs. */
    public Optional<MgmtDevice> managementDevice(String busName, String devName) {
        lock.readLock().lock();
        try {
            return mgmtdevs.stream()
                    .filter(m -> Objects.equals(m.busName(), busName) && m.devName().equals(devName))
                    .findFirst();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The management devices backed by a device profile (what an inventory lists), in registration order. */
    public List<FakeMgmtDevice> fakeManagementDevices() {
        lock.readLock().lock();
        try {
            return mgmtdevs.stream().filter(FakeMgmtDevice.class::isInstance).map(FakeMgmtDevice.class::cast).toList();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Lookup with the kernel's rule: a null bus matches only bus-less mgmtdevs. */
    public Optional<FakeMgmtDevice> fakeManagementDevice(String busName, String devName) {
        lock.readLock().lock();
        try {
            return mgmtdevs.stream()
                    .filter(m -> m instanceof FakeMgmtDevice && Objects.equals(m.busName(), busName) && m.devName().equals(devName))
                    .map(FakeMgmtDevice.class::cast)
                    .findFirst();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Lookup by iproute2's display name ("pci/0000:08:00.2", "vdpasim_net"). */
    public Optional<FakeMgmtDevice> managementDeviceByDisplayName(String displayName) {
        lock.readLock().lock();
        try {
            return mgmtdevs.stream().filter(m -> m instanceof FakeMgmtDevice && m.displayName().equals(displayName))
                    .map(FakeMgmtDevice.class::cast).findFirst();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Devices in creation order. */
    public List<NetlinkDeviceView> devices() {
        lock.readLock().lock();
        try {
            return devices.values().stream().map(FakeVdpaDevice::netlinkView).toList();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The devices with their fake-side API, in creation order. */
    public List<FakeVdpaDevice> fakeDevices() {
        lock.readLock().lock();
        try {
            return List.copyOf(devices.values());
        } finally {
            lock.readLock().unlock();
        }
    }

    public Optional<NetlinkDeviceView> device(String name) {
        return fakeDevice(name).map(FakeVdpaDevice::netlinkView);
    }

    public Optional<FakeVdpaDevice> fakeDevice(String name) {
        lock.readLock().lock();
        try {
            return Optional.ofNullable(devices.get(name));
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The mgmtdev's dev_add after the netlink layer's own checks: driver checks first (vdpa_sim:
     * features not a subset → EINVAL), then a duplicate name → EEXIST; creates the char device.
     */
    public NetlinkDeviceView addDevice(MgmtDevice mgmtDevice, String name, Provisioning provisioning) {
        return addDevice(mgmtDevice, name, provisioning, -1, false).netlinkView();
    }

    /**
     * dev_add with an optional fixed minor (state restore; -1 = lowest free). Driver checks come
     * first, in the profile's order, then the mgmtdev's dev_add work, then the duplicate name
     * (EEXIST from _vdpa_register_device). A {@code preexisting} device (the kernel's initial
     * inventory) costs no time.
     */
    public FakeVdpaDevice addDevice(MgmtDevice mgmtDevice, String name, Provisioning provisioning, int fixedMinor,
                                    boolean preexisting) {
        if (mgmtDevice instanceof VduseMgmtDevice vduse) {
            throw vduse.noSuchVduseDevice(name);
        }
        if (!(mgmtDevice instanceof FakeMgmtDevice m)) {
            throw new IllegalArgumentException("not a management device of this bus: " + mgmtDevice);
        }
        Provisioning p = provisioning == null ? Provisioning.NONE : provisioning;
        // vdpa_alloc_device names the device with dev_set_name, and kobject_set_name_vargs turns
        // every '/' into '!': "a/b" is registered (and found, and listed) as "a!b"
        name = name.replace('/', '!');
        lock.writeLock().lock();
        try {
            DeviceProfile profile = m.profile();
            DeviceProfile.ProvisioningRules rules = profile.device().provisioning();
            int perMgmt = profile.mgmtdev().devicesPerMgmtdev();
            if (perMgmt > 0 && devices.values().stream().filter(d -> d.mgmtDevice() == m).count() >= perMgmt) {
                throw KernelError.of(DeviceProfile.errno(rules.tooManyDevicesErrno()),
                        m.displayName() + " already has " + perMgmt + " device(s)");
            }
            long features = deviceFeatures(m, p);
            int pairs = vqPairs(m, p);
            int minor = fixedMinor >= 0 ? fixedMinor : minors.nextClearBit(0);
            if (minor >= MINOR_LIMIT || minors.get(minor)) {
                throw KernelError.of(Errno.ENOSPC, "no free vhost-vdpa minor " + minor);
            }
            FakeVdpaDevice d = new FakeVdpaDevice(name, m, minor, p, pairs, features,
                    models.prepare(profile, m.preset(), pairs, clock), faults, clock, otherOpeners);
            d.devAdd(preexisting);
            if (devices.containsKey(name)) {
                throw KernelError.of(Errno.EEXIST, "a vdpa device named " + name + " exists");
            }
            devices.put(name, d);
            minors.set(minor);
            nodes.put(minor, d);
            LOG.debug("vdpa device {} added", d);
            return d;
        } finally {
            lock.writeLock().unlock();
        }
    }

    private static long deviceFeatures(FakeMgmtDevice m, Provisioning p) {
        return withMacRule(m, p, offeredFeatures(m, p));
    }

    private static long offeredFeatures(FakeMgmtDevice m, Provisioning p) {
        DeviceProfile profile = m.profile();
        DeviceProfile.ProvisioningRules rules = profile.device().provisioning();
        long supported = m.supportedFeatures();
        if (p.features() != null) {
            long f = p.features();
            if ((f & ~supported) != 0) {
                throw KernelError.of(DeviceProfile.errno(rules.notSubsetErrno()),
                        String.format("features 0x%x not supported by %s (0x%x)", f, m.displayName(), supported));
            }
            long must = MacroValues.bitMask(rules.mustInclude());
            if ((f & must) != must) {
                throw KernelError.of(DeviceProfile.errno(rules.mustIncludeErrno()),
                        String.format("features 0x%x lack mandatory 0x%x", f, must));
            }
            return f;
        }
        long base = profile.device().features() != null ? MacroValues.bitMask(profile.device().features()) : supported;
        return base & ~MacroValues.bitMask(rules.dropWhenNotProvisioned());
    }

    /**
     * VIRTIO_NET_F_MAC as the driver ties it to the MAC it finds at dev add, the provisioned one or the function's
     * (mlx5_vdpa_dev_add): "addWhenMacSet" (6.1) offers it only with a
     * non-zero MAC; "requireMac" (6.12+) drops it without one, or refuses a provisioned F_MAC (EINVAL).
     */
    private static long withMacRule(FakeMgmtDevice m, Provisioning p, long features) {
        DriverFacts facts = m.profile().device().driverFacts();
        if (facts == null) {
            return features; // vdpa_sim: the features as given
        }
        byte[] mac = facts.devAddMac(p, m.function().mac());
        boolean hasMac = mac != null && !Arrays.equals(mac, new byte[mac.length]);
        return facts.devAddFeatures(features, hasMac, p.features() != null, m.displayName());
    }

    private static int vqPairs(FakeMgmtDevice m, Provisioning p) {
        DeviceProfile profile = m.profile();
        if (p.maxVqPairs() == null || profile.device().queues().fixed() != null) {
            return profile.device().queues().defaultPairs();
        }
        int pairs = p.maxVqPairs();
        if (pairs < 1 || pairs > profile.mgmtdev().maxVqPairs()) {
            throw KernelError.of(DeviceProfile.errno(profile.device().provisioning().tooManyPairsErrno()),
                    "max_vqp " + pairs + " outside 1.." + profile.mgmtdev().maxVqPairs());
        }
        return pairs;
    }

    /**
     * The link of a management device's PCI function changes: a port change event delivered to each of its
     * devices (outside the bus lock: the devices raise interrupts that may reach other devices).
     */
    public void setFunctionLink(MgmtDevice mgmtDevice, boolean up) {
        if (!(mgmtDevice instanceof FakeMgmtDevice m)) {
            throw new IllegalArgumentException("not a management device of this bus: " + mgmtDevice);
        }
        List<FakeVdpaDevice> on;
        lock.writeLock().lock();
        try {
            if (!m.function().setLinkUp(up)) {
                return;
            }
            on = devices.values().stream().filter(d -> d.mgmtDevice() == m).toList();
        } finally {
            lock.writeLock().unlock();
        }
        on.forEach(FakeVdpaDevice::portLinkChanged);
    }

    /** dev_del: waits while the device's char node is open (as the kernel does), then removes it. */
    public void deleteDevice(NetlinkDeviceView device) throws InterruptedException {
        deleteDevice(device.name(), device);
    }

    /** {@link #deleteDevice(NetlinkDeviceView)} of the device itself. */
    public void deleteDevice(FakeVdpaDevice device) throws InterruptedException {
        deleteDevice(device.name(), device.netlinkView());
    }

    private void deleteDevice(String name, NetlinkDeviceView view) throws InterruptedException {
        lock.writeLock().lockInterruptibly();
        try {
            FakeVdpaDevice d = devices.get(name);
            if (d == null || d.netlinkView() != view) {
                throw KernelError.of(Errno.ENODEV, "no vdpa device " + name);
            }
            // vhost_vdpa_remove: cdev_device_del takes the node out of devtmpfs first, then it waits for the close
            nodes.remove(d.minor());
            try {
                d.node().claimForRemoval();
            } catch (InterruptedException e) {
                nodes.put(d.minor(), d);
                throw e;
            }
            d.devDel();
            devices.remove(d.name());
            minors.clear(d.minor());
            LOG.debug("vdpa device {} deleted", d);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The device behind /dev/vhost-vdpa-{@code minor}, if that node exists (never blocks on the bus lock). */
    public Optional<FakeVdpaDevice> node(int minor) {
        return Optional.ofNullable(nodes.get(minor));
    }

    /** All nodes by minor. */
    public Map<Integer, FakeVdpaDevice> nodes() {
        return new TreeMap<>(nodes);
    }
}
