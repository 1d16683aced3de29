package org.vdpactl.fake.device;

import java.util.Optional;
import org.vdpactl.abi.MacroValues;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.bus.Provisioning;
import org.vdpactl.fake.fault.DriverCall;
import org.vdpactl.fake.fault.FaultInjector;
import org.vdpactl.fake.fault.LinkPort;
import org.vdpactl.fake.mem.AddressSpace;
import org.vdpactl.fake.model.DriverModel;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.fake.model.OpCost;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.time.Clock;
import org.vdpactl.time.Resource;
import org.vdpactl.abi.UapiBackendFeature;

/**
 * One vDPA device of the fake kernel: the {@code struct vdpa_device} plus its parent driver's state
 * (vdpa_sim or an mlx5-like model), driven through the {@code vdpa_config_ops}-level methods below.
 *
 * <p>Locking follows the kernel: callers from the vhost-vdpa side hold {@link #mutex()} (the vhost
 * device mutex) around each ioctl and every op here runs under it. What each op does beyond what vdpa.c and
 * vhost/vdpa.c do for every driver is the parent driver's {@link VdpaConfigOps}, which charges it through
 * {@link #charge} (first offered to the fault injector, then charged to this device's {@link Resource} with
 * the {@link DriverModel}'s cost), so ops on one device serialise in (simulated) time and ops on different
 * devices overlap.
 * The node's lifecycle is {@link DeviceNode}; what the netlink family sees is {@link NetlinkDeviceView}.
 */
public final class FakeVdpaDevice {
    private static final Logger LOG = LoggerFactory.getLogger(FakeVdpaDevice.class);
    private static final int DRIVER_OK = vhost_h.VIRTIO_CONFIG_S_DRIVER_OK();

    private final String name;
    private final FakeMgmtDevice mgmt;
    private final DeviceProfile.Device spec;
    private final int minor;
    private final int vqPairs;
    private final int nvqs;
    /** The device features; mlx5 on 7.2 adds VIRTIO_NET_F_MAC when a MAC is set (DEV_ATTR_SET). */
    private volatile long deviceFeatures;
    /** The parent driver's vdpa_config_ops: vdpa_sim's unless the profile carries a driver's facts. */
    private final VdpaConfigOps ops;
    private final Provisioning provisioning;
    /** Makes {@link #model} on first use: listing devices builds no latency model (start-up). */
    private final Supplier<DriverModel> modelSource;
    private final Object modelLock = new Object();
    private volatile DriverModel model;
    private final FaultInjector faults;
    /** This device's port for link rules, made once: every call passes the injector, which must not allocate. */
    private final LinkPort linkPort = this::linkFromFault;
    private final Clock clock;
    private final Resource resource;
    private final DeviceCounters counters = new DeviceCounters();
    private final NetDatapathStats datapathStats = new NetDatapathStats();
    private final ReentrantLock mutex = new ReentrantLock();
    private final DeviceNode node;
    private final NetlinkDeviceView netlinkView = new NetlinkDeviceView(this);

    // device side (vdpa_sim / driver state)
    private volatile int status;
    private volatile long driverFeatures;
    private boolean featuresValid;
    private final ConfigSpace config;
    private final DeviceVq[] vqs;
    private final int[] groupAsid;
    /** The device's own copy of each ASID's map; absent = the initial translation (vdpa_sim: identity). */
    private final Map<Integer, List<MapEntry>> deviceMaps = new TreeMap<>();
    private volatile boolean suspended;
    private boolean pendingKick;
    private long generation;
    /** The config interrupt (vhost's config eventfd), or null. */
    private Runnable configInterrupt;
    /** Interrupts raised under the mutex, delivered after it is released (see {@link #deliverInterrupts()}). */
    private final List<Runnable> raised = new ArrayList<>();
    /**
     * Whether {@link #raised} may hold something: written only under the mutex, read without it, so that the
     * releaser of every IOTLB write and open (nearly always nothing raised) skips the mutex.
     */
    private volatile boolean interruptsPending;
    /** The MAC the last DEV_ATTR_SET gave, or null (what a restored state repeats through the driver). */
    private volatile byte[] attrMac;
    /** The owner's memory (bind_mm), through which the datapath reaches guest memory. */
    private AddressSpace boundMm;

    /** Device-side state of one virtqueue. */
    static final class DeviceVq {
        boolean ready;
        int num;
        long descArea;
        long driverArea;
        long deviceArea;
        /** The avail index the device reached (what get_vq_state reports). */
        long state;
        int usedIdx;
        /** The vq interrupt (vhost's call eventfd), or null. */
        Runnable callback;

        /** Enables or disables the ring; enabling re-initialises it where the avail index stands. */
        void setReady(boolean enable) {
            ready = enable;
            if (enable) {
                usedIdx = (int) (state & 0xFFFF);
            }
        }
    }

    FakeVdpaDevice(String name, FakeMgmtDevice mgmt, int minor, Provisioning provisioning, int vqPairs,
                   long deviceFeatures, Supplier<DriverModel> model, FaultInjector faults, Clock clock, NodeOpeners others) {
        this.name = name;
        this.mgmt = mgmt;
        this.spec = mgmt.profile().device();
        this.minor = minor;
        this.provisioning = provisioning;
        this.vqPairs = vqPairs;
        this.nvqs = spec.queues().count(vqPairs);
        this.deviceFeatures = deviceFeatures;
        this.modelSource = model;
        this.faults = faults;
        this.clock = clock;
        this.resource = clock.newResource("vdpa " + name);
        this.ops = spec.driverFacts() != null ? spec.driverFacts().newOps(this) : new VdpaSimOps(this);
        this.config = "blk".equals(spec.config().kind()) ? ConfigSpace.blk(spec.config(), nvqs)
                : ConfigSpace.net(spec.config(), provisioning.mac(), provisioning.mtu(), vqPairs,
                        ops.configFieldFeatures(deviceFeatures));
        this.vqs = new DeviceVq[nvqs];
        for (int i = 0; i < nvqs; i++) {
            vqs[i] = new DeviceVq();
        }
        this.groupAsid = new int[spec.groups().count()];
        this.node = new DeviceNode(name, minor, mutex, clock, others);
    }

    // ------------------------------------------------------------------ facts

    public DeviceProfile.Device spec() {
        return spec;
    }

    public FakeMgmtDevice fakeMgmtDevice() {
        return mgmt;
    }

    public Provisioning provisioning() {
        return provisioning;
    }

    public int vqPairs() {
        return vqPairs;
    }

    public int nvqs() {
        return nvqs;
    }

    public int ngroups() {
        return spec.groups().count();
    }

    public int nas() {
        return spec.addressSpaces();
    }

    public Clock clock() {
        return clock;
    }

    public Resource resource() {
        return resource;
    }

    public FaultInjector faults() {
        return faults;
    }

    /** Whether the latency model was made yet (it is on the first {@link #model()}). */
    boolean hasModel() {
        return model != null;
    }

    public DriverModel model() {
        DriverModel m = model;
        if (m == null) {
            synchronized (modelLock) {
                m = model;
                if (m == null) {
                    m = modelSource.get();
                    ops.modelMade(m);
                    model = m;
                }
            }
        }
        return m;
    }

    public DeviceCounters.Snapshot counters() {
        return counters.snapshot();
    }

    /** The vhost device mutex: held around every ioctl and IOTLB write. */
    public ReentrantLock mutex() {
        return mutex;
    }

    public boolean canSuspend() {
        return spec.ops().has("suspend");
    }

    /** The profile's resume op, unless the driver drops it (mlx5 FW without freeze_to_rdy_supported). */
    public boolean canResume() {
        DriverModel model = model();
        return spec.ops().has("resume") && model.hasResumeOp();
    }

    /**
     * Whether the driver op {@code op} is ever called on this device ({@link DeviceProfile.Ops#calls}), with the
     * resume op the driver model may drop: a fault rule on an op that is never called could never fire.
     */
    public boolean callsOp(String op) {
        return op.equals("resume") ? canResume() : spec.ops().calls(op);
    }

    /** get_vq_desc_group: in the profile (and its kernel's ops) and kept by the driver (mlx5: FW desc_group_mkey_supported). */
    public boolean hasDescGroup() {
        DriverModel model = model();
        return spec.groups().descData() != null && model.hasDescGroupOp();
    }

    /** vhost-vdpa's "persistent map" rule: no set_map/dma_map (platform IOMMU), or reset_map, or the device says so. */
    public boolean hasPersistentMaps() {
        return (!spec.ops().setMap() && !spec.ops().dmaMap()) || spec.ops().has("reset_map")
                || (deviceBackendFeatures() & UapiBackendFeature.VHOST_BACKEND_F_IOTLB_PERSIST.mask()) != 0;
    }

    /** get_backend_features of the device. */
    public long deviceBackendFeatures() {
        return MacroValues.bitMask(spec.ops().backendFeatures());
    }

    public long iovaFirst() {
        return MacroValues.unsigned(spec.iovaFirst());
    }

    public long iovaLast() {
        return MacroValues.unsigned(spec.iovaLast());
    }

    public int vqNumMax() {
        return spec.vqNumMax();
    }

    public int configSize() {
        return config.size();
    }

    public boolean featuresValid() {
        return featuresValid;
    }

    public boolean isSuspended() {
        return suspended;
    }

    public long generation() {
        return generation;
    }

    /** The device's current copy of an ASID's map (empty Optional = initial translation). */
    public Optional<List<MapEntry>> deviceMap(int asid) {
        mutex.lock();
        try {
            return Optional.ofNullable(deviceMaps.get(asid));
        } finally {
            mutex.unlock();
        }
    }

    public int groupAsid(int group) {
        return groupAsid[group];
    }

    /** get_vq_ready. */
    public boolean vqReady(int index) {
        return ops.getVqReady(index);
    }

    /** The parent driver's ops. */
    public VdpaConfigOps ops() {
        return ops;
    }

    /** The indexed queue (what vdpa_sim's ops and mlx5's data-queue ops reach). */
    DeviceVq indexedVq(int index) {
        return vqs[index];
    }

    /** Queues the config interrupt (the driver's config_cb) for delivery outside the mutex. */
    void raiseConfigInterrupt() {
        raise(configInterrupt);
    }

    /** The device-side state a per-queue op at {@code index} reaches, as the driver addresses it. */
    private DeviceVq vq(int index) {
        return ops.vq(index);
    }

    public boolean hasVqCallback(int index) {
        return vqs[index].callback != null;
    }

    public boolean hasConfigCallback() {
        return configInterrupt != null;
    }

    // ------------------------------------------------------------------ vdpa_config_ops

    /** get_vq_group. */
    public int vqGroup(int index) {
        return isCvq(index) ? spec.groups().cvq() : spec.groups().data();
    }

    /** get_vq_desc_group (only when {@link #hasDescGroup()}). */
    public int vqDescGroup(int index) {
        return isCvq(index) ? spec.groups().descCvq() : spec.groups().descData();
    }

    /** get_vq_size: vdpa_sim reports the queue maximum before DRIVER_OK and the configured size after. */
    public int vqSize(int index) {
        return (status & DRIVER_OK) != 0 ? vqs[index].num : spec.vqNumMax();
    }

    private boolean isCvq(int index) {
        return spec.queues().lastIsCvq() && index == cvqIndex();
    }

    /** The control virtqueue's index as the driver has it now (meaningful only where {@code lastIsCvq}). */
    public int cvqIndex() {
        return ops.ctrlVqIndex();
    }

    /** An index below nvqs that the driver's per-queue ops accept (mlx5: is_index_valid). */
    public boolean validVqIndex(int index) {
        return index >= 0 && index < nvqs && ops.isIndexValid(index);
    }

    /** get_vq_notification gives a page for this index (the driver's answer). */
    public boolean hasDoorbellPage(int index) {
        return ops.getVqNotification(index);
    }

    /** compat_reset. Throws when the driver fails it (the device state is then left as it was). */
    public void reset(boolean cleanMap) {
        requireLocked();
        ops.reset(cleanMap);
        status = 0;
        driverFeatures = 0;
        featuresValid = false;
        for (DeviceVq vq : vqs) {
            vq.ready = false;
            vq.descArea = 0;
            vq.driverArea = 0;
            vq.deviceArea = 0;
            vq.state = 0;
            vq.usedIdx = 0;
            vq.callback = null;
        }
        Arrays.fill(groupAsid, 0);
        suspended = false;
        pendingKick = false;
        generation++;
        if (cleanMap) {
            deviceMaps.clear();
        }
    }

    /**
     * set_status with a non-zero value. The op returns nothing in the kernel: a driver that fails
     * it (mlx5 DRIVER_OK) marks the device FAILED instead, which the driver's answer carries.
     */
    public void setStatus(int newStatus) {
        requireLocked();
        status = ops.setStatus(status, newStatus);
    }

    /** vdpa_set_features: marks features valid, then set_driver_features (KernelError when the driver refuses). */
    public void setDriverFeatures(long features) {
        requireLocked();
        featuresValid = true;
        DeviceProfile.DriverFeatureRules rules = spec.driverFeatures();
        long required = MacroValues.bitMask(rules.required());
        if ((features & required) != required) {
            throw KernelError.of(DeviceProfile.errno(rules.requiredErrno()),
                    String.format("%s: driver features 0x%x lack required 0x%x", name, features, required));
        }
        rules.requires().forEach((feature, needs) -> {
            long f = MacroValues.bitMask(List.of(feature));
            long n = MacroValues.bitMask(List.of(needs));
            if ((features & f) != 0 && (features & n) == 0) {
                throw KernelError.of(DeviceProfile.errno(rules.dependencyErrno()),
                        name + ": " + feature + " without " + needs);
            }
        });
        long stored = features & deviceFeatures;
        ops.setDriverFeatures(stored);
        driverFeatures = stored;
    }

    /** vdpa_get_config: the core negotiates "no features" first when none were set since reset. */
    public byte[] readConfigForDriver(long offset, int length) {
        requireLocked();
        if (!featuresValid) {
            try {
                setDriverFeatures(0);
            } catch (KernelError ignored) {
                // a legacy-guest probe the device is free to refuse; the kernel ignores the result
            }
        }
        return ops.getConfig((int) offset, length);
    }

    /** vdpa_set_config: the driver's set_config. */
    public void writeConfig(long offset, byte[] data) {
        requireLocked();
        ops.setConfig((int) offset, data);
    }

    /** set_config_cb: the config interrupt, or null to clear it. */
    public void setConfigCallback(Runnable interrupt) {
        configInterrupt = interrupt;
    }

    /** set_vq_num returns nothing in the kernel: a driver failure is only logged. */
    public void setVqNum(int index, int num) {
        requireLocked();
        try {
            ops.setVqNum(index, num);
        } catch (KernelError e) {
            LOG.info("{}: set_vq_num({}, {}) failed: {}", name, index, num, e.getMessage());
        }
    }

    public void setVqAddress(int index, long desc, long driver, long device) {
        requireLocked();
        ops.setVqAddress(index, desc, driver, device);
    }

    /** set_vq_state: the avail index (split) or the packed pair, as vhost-vdpa passes it. */
    public void setVqState(int index, long state) {
        requireLocked();
        ops.setVqState(index, state);
    }

    /**
     * get_vq_state: what the device reports now (vdpa_sim: the last SET value, 0 after reset; mlx5: its
     * CVQ's last_avail_idx, which a reset keeps, or a data VQ's FW object, see {@link DriverModel#reportedVqState}).
     */
    public long getVqState(int index) {
        requireLocked();
        return ops.getVqState(index);
    }

    /** set_vq_ready returns nothing in the kernel: a driver that fails it leaves the vq not ready. */
    public void setVqReady(int index, boolean ready) {
        requireLocked();
        try {
            ops.setVqReady(index, ready);
        } catch (KernelError e) {
            LOG.info("{}: set_vq_ready({}, {}) failed: {}", name, index, ready, e.getMessage());
            vq(index).ready = false;
        }
    }

    /** set_vq_cb: the vq interrupt, or null to clear it. */
    public void setVqCallback(int index, Runnable interrupt) {
        ops.setVqCb(index, interrupt);
    }

    /** bind_mm / unbind_mm: the owner's memory the datapath reads guest buffers from (null unbinds). */
    public void bindMm(AddressSpace mm) {
        requireLocked();
        boundMm = mm;
    }

    public void setGroupAsid(int group, int asid) {
        requireLocked();
        ops.setGroupAsid(group, asid);
        groupAsid[group] = asid;
    }

    /** set_map: the whole table of one ASID. */
    public void setMap(int asid, List<MapEntry> table) {
        requireLocked();
        ops.setMap(asid, List.copyOf(table));
    }

    /** dma_map of one entry (dma_map devices). */
    public void dmaMap(int asid, MapEntry entry) {
        requireLocked();
        ops.dmaMap(asid, entry);
    }

    /** dma_unmap of one entry (dma_map devices). */
    public void dmaUnmap(int asid, MapEntry entry) {
        requireLocked();
        ops.dmaUnmap(asid, entry);
    }

    /** reset_map: the ASID returns to the initial translation. */
    public void resetMap(int asid) {
        requireLocked();
        ops.resetMap(asid);
    }

    /** vhost_vdpa_suspend: the device counts as suspended only when the driver's op succeeded. */
    public void suspend() {
        requireLocked();
        ops.suspend();
        suspended = true;
    }

    /** resume: kicks that arrived while suspended are replayed. */
    public void resume() {
        requireLocked();
        ops.resume();
        suspended = false;
        if (pendingKick) {
            pendingKick = false;
            runQueues();
        }
    }

    /**
     * kick_vq, forwarded from a kick eventfd: counted; a kick of the control virtqueue (or, on a
     * device with the loopback datapath, of any ready virtqueue, as vdpa_sim's work handles every
     * queue) runs the queues when the device is live, is remembered while it is suspended, and is
     * dropped otherwise.
     */
    public void kick(int index) {
        mutex.lock();
        try {
            counters.recordKick(suspended);
            if (!ops.isIndexValid(index)) {
                return; // mlx5_vdpa_kick_vq: !is_index_valid returns
            }
            boolean runsWork = isCvq(index) || (loopback() && vqs[index].ready);
            if (!runsWork || (status & DRIVER_OK) == 0) {
                return;
            }
            switch (ops.kickVq(index, suspended)) {
                case DROP -> {
                    return;
                }
                case DEFER -> {
                    pendingKick = true;
                    return;
                }
                case RUN -> runQueues();
            }
        } finally {
            mutex.unlock();
        }
        deliverInterrupts();
    }

    /** Queues a vq interrupt (null = no callback installed) for delivery outside the mutex. */
    void raise(Runnable interrupt) {
        requireLocked();
        if (interrupt != null) {
            raised.add(interrupt);
            interruptsPending = true;
        }
    }

    /**
     * Delivers queued vq interrupts. Called by whoever released the mutex: signalling an eventfd
     * may kick another device, and doing that under this device's mutex could deadlock two devices
     * (the kernel defers such work to its workqueues).
     *
     * <p>The flag is read without the mutex: a releaser that raised something set it before its unlock and sees it
     * set (or cleared by a later taker, which took the list with its interrupts under the mutex and delivers them);
     * list and flag change together under the mutex, so nothing is lost or delivered twice.
     */
    public void deliverInterrupts() {
        if (!interruptsPending || mutex.isHeldByCurrentThread()) {
            return;
        }
        List<Runnable> now;
        mutex.lock();
        try {
            interruptsPending = false;
            if (raised.isEmpty()) {
                return;
            }
            now = List.copyOf(raised);
            raised.clear();
        } finally {
            mutex.unlock();
        }
        now.forEach(Runnable::run);
    }

    /** The device's work: the control virtqueue first, then (loopback devices) TX into RX, as vdpasim_net_work. */
    private void runQueues() {
        runControlQueue();
        if (loopback() && boundMm != null && nvqs >= 2) {
            int asid = groupAsid[vqGroup(0)];
            new NetLoopbackDatapath(this, boundMm, deviceMaps.get(asid), spec.ops().identityWhenUnmapped(), datapathStats)
                    .run(vqs[0], vqs[1], driverFeatures, config.mac());
        }
    }

    /** Whether frames sent on TX come back on RX (vdpa_sim_net; hardware such as mlx5 sends them out). */
    private boolean loopback() {
        return "loopback".equals(spec.datapath());
    }

    private void runControlQueue() {
        DeviceVq cvq = ops.cvqToServe();
        if (cvq == null || boundMm == null) {
            return;
        }
        new ControlQueueDatapath(this, boundMm, ops.cvqMap(), spec.ops().identityWhenUnmapped(), datapathStats).run(cvq);
    }

    /**
     * A port change event of the device's PCI function (the bus delivers it when the function's link changes):
     * what the driver's notifier does, then the interrupts it raised.
     */
    public void portLinkChanged() {
        mutex.lock();
        try {
            ops.portChanged();
        } finally {
            mutex.unlock();
        }
        deliverInterrupts();
    }

    /**
     * A link rule ({@code --fake-faults}) fired on a call of this device, the device mutex held: its function's port
     * goes up or down and the driver's notifier handles the event now, as {@link #portLinkChanged} (the interrupts it
     * raises are delivered when the call releases the mutex). No bus lock is taken (a dev del holding it waits for
     * this call's node): the device is its function's only one, as a function-backed driver (mlx5) allows one device
     * per management device (devicesPerMgmtdev 1; mlx5_vdpa_dev_add's ENOSPC). A driver without a function (vdpa_sim)
     * sees nothing.
     */
    private void linkFromFault(String device, boolean up) {
        if (spec.driverFacts() == null) {
            LOG.info("{}: link rule fired, but its driver has no PCI function: nothing changes", name);
            return;
        }
        if (mgmt.function().setLinkUp(up)) {
            portLinkChanged();
        }
    }

    /**
     * The fault injector's hook for an ioctl on this device ({@link FaultInjector#hit}) by its uapi name (or
     * "ioctl 0x…" for a code it does not know), link rules reaching it.
     */
    public void faultHit(String ioctl) {
        faults.hit(name, ioctl, resource, linkPort);
    }

    /** {@link #faultHit(String)} for a call into the driver other than an ioctl. */
    public void faultHit(DriverCall call) {
        faults.hit(name, call.kernelName(), resource, linkPort);
    }

    /** The CVQ's MAC_ADDR_SET: the config-space MAC changes. */
    void setConfigMacFromDriver(byte[] mac) {
        config.setMac(mac);
    }

    /** The config space (the driver's ops read and change it). */
    ConfigSpace config() {
        return config;
    }

    /** The driver's copy of an ASID's map, or null for the initial translation (for the driver's ops). */
    List<MapEntry> mapOf(int asid) {
        return deviceMaps.get(asid);
    }

    /** The driver stores an ASID's map (set_map, dma_map). */
    void storeMap(int asid, List<MapEntry> map) {
        deviceMaps.put(asid, map);
    }

    /** The driver drops an ASID's map: the initial translation again (reset_map). */
    void removeMap(int asid) {
        deviceMaps.remove(asid);
    }

    /** The driver drops every map (mlx5's err_setup destroys its MRs). */
    void clearMaps() {
        deviceMaps.clear();
    }

    /**
     * mgmtdev dev_add work on the new device (called by the bus before the device is visible).
     * A device that already existed when the kernel started (inventory, restored state) sets up
     * its model without being charged: its creation is not part of anything the caller measures.
     */
    void devAdd(boolean preexisting) {
        int dataVqs = spec.queues().lastIsCvq() ? nvqs - 1 : nvqs;
        mutex.lock();
        try {
            ops.devAdd(dataVqs, !preexisting);
        } finally {
            mutex.unlock();
        }
    }

    /** mgmtdev dev_del work (after the node was released). */
    void devDel() {
        mutex.lock();
        try {
            ops.devDel();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Runs one driver op through the fake's machinery: first offered to the fault injector, then charged to
     * this device's {@link Resource} with the cost the op's {@code call} to the latency model returns. The
     * driver's ops ({@link VdpaConfigOps}) decide what they charge; this is where the time goes.
     */
    void charge(DriverCall op, Supplier<OpCost> call) {
        OpCost cost;
        long issuedAt;
        try {
            faultHit(op);
            issuedAt = clock.nanoTime(); // after any injected delay, which is charged on its own
            cost = call.get();
        } catch (KernelError e) {
            counters.recordFailure(op.kernelName());
            throw e;
        }
        if (cost.nanos() > 0) {
            // real clock: computing the cost is part of it, not extra time (see Resource#workSince)
            resource.workSince(issuedAt, cost.nanos());
        }
        counters.record(op.kernelName(), cost);
    }

    private void requireLocked() {
        if (!mutex.isHeldByCurrentThread()) {
            throw new IllegalStateException("device op on " + name + " without the device mutex");
        }
    }

    // ------------------------------------------------------------------ node and netlink view

    /** The /dev/vhost-vdpa-N node's lifecycle (open, release, dev_del's wait). */
    public DeviceNode node() {
        return node;
    }

    /** This device as the vdpa netlink family sees it. */
    public NetlinkDeviceView netlinkView() {
        return netlinkView;
    }

    public String name() {
        return name;
    }

    public FakeMgmtDevice mgmtDevice() {
        return mgmt;
    }

    public int minor() {
        return minor;
    }

    /** The current virtio status byte. */
    public int status() {
        return status;
    }

    /** The device feature set (provisioned or offered). */
    public long deviceFeatures() {
        return deviceFeatures;
    }

    /** The driver features set so far. */
    public long negotiatedFeatures() {
        return driverFeatures;
    }

    /** A copy of the whole config space as the device presents it now. */
    public byte[] configSpace() {
        mutex.lock();
        try {
            return config.read();
        } finally {
            mutex.unlock();
        }
    }

    /** The MAC currently in the config space (net devices). */
    public byte[] configMac() {
        mutex.lock();
        try {
            return config.mac();
        } finally {
            mutex.unlock();
        }
    }

    /** The datapath counters by vendor-statistics name (what the state file keeps across processes). */
    public Map<String, Long> datapathStats() {
        return datapathStats.snapshot();
    }

    /** Adds counts to the datapath counters (another process's counting, read from the state file). */
    public void addDatapathStats(Map<String, Long> counts) {
        counts.forEach(datapathStats::add);
    }

    /** One datapath counter under its vendor-statistics name (0 when nothing counted it). */
    long datapathStat(String statName) {
        return datapathStats.get(statName);
    }

    /**
     * DEV_ATTR_SET's MAC: the config-space MAC changes (EOPNOTSUPP for a device without one); mlx5 on
     * 7.2 refuses it after DRIVER_OK (EBUSY) and otherwise starts offering VIRTIO_NET_F_MAC.
     */
    public void setMacAddress(byte[] mac) {
        if (!"net".equals(spec.config().kind())) {
            throw KernelError.of(Errno.EOPNOTSUPP, name + " has no MAC");
        }
        mutex.lock();
        try {
            faultHit(DriverCall.DEV_SET_ATTR);
            deviceFeatures = ops.setAttrMac(mac, status, deviceFeatures);
            config.setMac(mac.clone());
            attrMac = mac.clone();
        } finally {
            mutex.unlock();
        }
    }

    /** The MAC the last DEV_ATTR_SET gave, or null. */
    public byte[] attrMac() {
        byte[] m = attrMac;
        return m == null ? null : m.clone();
    }

    /**
     * A restored state's DEV_ATTR_SET: the driver's answer to it again (its features), without the fault injector
     * (the call was made by an earlier process, not now).
     */
    public void restoreAttrMac(byte[] mac) {
        mutex.lock();
        try {
            deviceFeatures = ops.setAttrMac(mac, status, deviceFeatures);
            config.setMac(mac.clone());
            attrMac = mac.clone();
        } finally {
            mutex.unlock();
        }
    }

    /** A restored state's config MAC, written back as it was (the driver is not asked: no features change). */
    public void restoreConfigMac(byte[] mac) {
        mutex.lock();
        try {
            config.setMac(mac.clone());
        } finally {
            mutex.unlock();
        }
    }

    @Override
    public String toString() {
        return name + " (" + mgmt.displayName() + ", vhost-vdpa-" + minor + ")";
    }
}
