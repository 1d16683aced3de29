package org.vdpactl.fake.vhost;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.fault.DriverCall;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.fake.vfs.EventFdFile;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.vfs.KernelConstants;
import org.vdpactl.fake.vfs.UserMemory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.device.FakeVdpaDevice;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.UapiIoctl;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.vhost_vdpa_config;
import org.vdpactl.ffi.gen.vhost.vhost_vdpa_iova_range;
import org.vdpactl.ffi.gen.vhost.vhost_vring_state;
import org.vdpactl.sys.Errno;
import org.vdpactl.abi.UapiBackendFeature;

/**
 * The vhost-vdpa driver's per-device state and its ioctl handling: {@code struct vhost_vdpa} with
 * drivers/vhost/vdpa.c, Linux 6.12 semantics as verified on a real kernel (docs/spec/kernel-abi.md
 * §1-§5, verified-device.md). The generic vhost part it builds on (drivers/vhost/vhost.c: owner,
 * virtqueue copies, vring ioctls, IOTLB message parsing) is {@link VhostDev}. One instance per
 * device; the vhost side is re-initialised at every open, as vhost_dev_init does.
 *
 * <p>Every method runs under the device mutex (the vhost device mutex).
 */
public final class VhostVdpa {
    private static final Logger LOG = LoggerFactory.getLogger(VhostVdpa.class);

    /** The IOTLB entry limit of 6.12 and 7.2 (the profile's iotlbEntryLimit; 6.1.176 has none). */
    public static final int MAX_IOTLB_ENTRIES = 2048;
    static final long BACKEND_BASE = UapiBackendFeature.VHOST_BACKEND_F_IOTLB_MSG_V2.mask()
            | UapiBackendFeature.VHOST_BACKEND_F_IOTLB_BATCH.mask() | UapiBackendFeature.VHOST_BACKEND_F_IOTLB_ASID.mask();
    static final long F_SUSPEND = UapiBackendFeature.VHOST_BACKEND_F_SUSPEND.mask();
    static final long F_RESUME = UapiBackendFeature.VHOST_BACKEND_F_RESUME.mask();
    static final long F_ENABLE_AFTER_DRIVER_OK = UapiBackendFeature.VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK.mask();
    static final long F_DESC_ASID = UapiBackendFeature.VHOST_BACKEND_F_DESC_ASID.mask();
    static final long F_IOTLB_PERSIST = UapiBackendFeature.VHOST_BACKEND_F_IOTLB_PERSIST.mask();
    static final long F_IOTLB_ASID = UapiBackendFeature.VHOST_BACKEND_F_IOTLB_ASID.mask();
    static final long BACKEND_ALLOWED = BACKEND_BASE | F_SUSPEND | F_RESUME | F_ENABLE_AFTER_DRIVER_OK | F_DESC_ASID
            | F_IOTLB_PERSIST;
    private static final int S_FEATURES_OK = vhost_h.VIRTIO_CONFIG_S_FEATURES_OK();
    private static final int S_DRIVER_OK = vhost_h.VIRTIO_CONFIG_S_DRIVER_OK();
    private static final long RING_PACKED = bit(vhost_h.VIRTIO_F_RING_PACKED());
    private static final long STATE_SIZE = vhost_vring_state.layout().byteSize();
    private static final long CONFIG_HEADER = vhost_vdpa_config.buf$offset();

    private final FakeVdpaDevice dev;
    private final IotlbProcessor iotlb;
    private final KernelProfile kernel;
    /** kernel's vhost ioctls as a hash set: looked up on every ioctl (the profile holds a list). */
    private final Set<UapiIoctl> kernelIoctls;

    /** The vhost_dev part (vhost.c): owner, virtqueue copies, vring ioctls. */
    private final VhostDev vdev = new VhostDev();
    // vhost_vdpa state, valid while open
    private long ackedBackendFeatures;
    private long ackedFeatures;
    private boolean suspended;
    private int vqNumMax;
    private EventFdFile configCall;
    private final IotlbState iotlbState = new IotlbState();

    /** The driver as the given Linux version has it. */
    public VhostVdpa(FakeVdpaDevice dev, KernelProfile kernel) {
        this.dev = dev;
        this.iotlb = new IotlbProcessor(this, iotlbState, dev);
        this.kernel = kernel;
        this.kernelIoctls = Set.copyOf(kernel.vhost().ioctls());
    }

    /** Entries one address space holds (KernelProfile.Vhost#iotlbEntryLimit); 0: no limit. */
    int iotlbEntryLimit() {
        return kernel.vhost().iotlbEntryLimit();
    }

    public KernelProfile kernel() {
        return kernel;
    }

    public FakeVdpaDevice device() {
        return dev;
    }

    /** The current owner process, or null. */
    public FakeProcess owner() {
        return locked(vdev::owner);
    }

    /** A copy of an address space's table, lowest IOVA first (tests, diagnostics). */
    public List<MapEntry> iotlbEntries(int asid) {
        return locked(() -> {
            IotlbTable t = iotlbState.table(asid);
            return t == null ? List.of() : t.entries();
        });
    }

    /** True when the AS object exists. */
    public boolean hasAddressSpace(int asid) {
        return locked(() -> iotlbState.table(asid) != null);
    }

    public boolean inBatch() {
        return locked(iotlbState::inBatch);
    }

    public long ackedBackendFeatures() {
        return locked(() -> ackedBackendFeatures);
    }

    public boolean suspended() {
        return locked(() -> suspended);
    }

    private <T> T locked(Supplier<T> read) {
        dev.mutex().lock();
        try {
            return read.get();
        } finally {
            dev.mutex().unlock();
        }
    }

    boolean ownedBy(FakeProcess caller) {
        return vdev.ownedBy(caller);
    }

    boolean ackedAsid() {
        return (ackedBackendFeatures & F_IOTLB_ASID) != 0;
    }

    // ------------------------------------------------------------------ open / release

    /** vhost_vdpa_open (device mutex held by the caller). */
    public void open() {
        dev.node().claim();
        try {
            dev.faultHit(DriverCall.OPEN);
            iotlbState.endBatch();
            // vqs are NULL before vhost_dev_init, so the open-time reset never asks for CLEAN_MAP
            reset(false);
        } catch (KernelError e) {
            dev.node().release();
            throw e;
        }
        vdev.init(dev.nvqs(), dev::kick);
        ackedBackendFeatures = 0;
        ackedFeatures = 0;
        configCall = null;
        iotlbState.reset(dev.iovaFirst(), dev.iovaLast());
    }

    /** vhost_vdpa_release (device mutex held by the caller). */
    public void release() {
        try {
            iotlbState.endBatch();
            try {
                reset(!persistAcked());
            } catch (KernelError e) {
                LOG.info("{}: reset at close failed: {}", dev.name(), e.getMessage());
            }
            configCall = null;
            dev.setConfigCallback(null);
            vdev.stop();
            for (int asid : iotlbState.asids()) {
                iotlb.removeAddressSpace(asid);
            }
            vdev.cleanup();
            dev.bindMm(null);
        } finally {
            dev.node().release();
        }
    }

    private boolean persistAcked() {
        return (ackedBackendFeatures & F_IOTLB_PERSIST) != 0;
    }

    /** _compat_vdpa_reset: the device side only; vhost state and IOTLB tables survive. */
    private void reset(boolean cleanMap) {
        suspended = false;
        vqNumMax = 0;
        dev.reset(cleanMap);
        vqNumMax = dev.vqNumMax();
    }

    // ------------------------------------------------------------------ write (IOTLB)

    /** write(2) of one IOTLB message; returns 72 or throws (EINVAL for parse errors, EFAULT for the rest). */
    public long write(FakeProcess caller, MemorySegment buf) {
        return iotlb.write(caller, buf);
    }

    // ------------------------------------------------------------------ mmap

    /** vhost_vdpa_mmap's checks; returns the vq index whose doorbell page to map. */
    public int checkMmap(long length, int prot, boolean shared, long offset) {
        long index = offset / KernelConstants.PAGE_SIZE;
        if (length != KernelConstants.PAGE_SIZE) {
            throw KernelError.of(Errno.EINVAL, "doorbell mmap length must be one page");
        }
        if (!shared) {
            throw KernelError.of(Errno.EINVAL, "doorbell mmap must be MAP_SHARED");
        }
        if ((prot & libc_h.PROT_READ()) != 0) {
            throw KernelError.of(Errno.EINVAL, "doorbell mmap must not ask for PROT_READ");
        }
        if (index > 65535) {
            throw KernelError.of(Errno.EINVAL, "vq index " + index + " > 65535");
        }
        if (!dev.spec().ops().doorbell()) {
            throw KernelError.of(Errno.ENOTSUPP, dev.name() + " has no get_vq_notification");
        }
        if (index >= dev.nvqs()) {
            // vhost_vdpa_get_vq_notification: index >= v->nvqs (6.1.192 vhost/vdpa.c l. 1315; 6.12.118 l. 1543)
            throw KernelError.of(Errno.EINVAL, "vq " + index + " >= " + dev.nvqs() + " virtqueues");
        }
        if (!dev.hasDoorbellPage((int) index)) {
            // the driver reports an empty notification area, whose size cannot match the page
            throw KernelError.of(Errno.ENOTSUPP, "vq " + index + " has no doorbell page");
        }
        return (int) index;
    }

    // ------------------------------------------------------------------ ioctl

    /**
     * vhost_vdpa_unlocked_ioctl (device mutex held by the caller). Dispatch keys on the request
     * number, named through the generated bindings ({@link UapiIoctl}), as the kernel's
     * {@code switch (cmd)} keys on the linux/vhost.h macros; a number that is not a vhost ioctl of
     * the headers, or one this kernel release lacks ({@link KernelProfile#hasIoctl(UapiIoctl)}),
     * takes the unknown-command path.
     */
    public int ioctl(FakeProcess caller, long cmd, MemorySegment arg) {
        UapiIoctl io = UapiIoctl.forRequest(cmd);
        dev.faultHit(io != null ? io.name() : String.format("ioctl 0x%08X", cmd));
        if (io != null && !kernelIoctls.contains(io)) {
            // a command this version does not know falls through vhost_vdpa_unlocked_ioctl's default:
            // vhost_dev_ioctl (owner check: EPERM), vhost_vdpa_vring_ioctl (reads a vq index: EFAULT,
            // ENOBUFS), vhost_vring_ioctl's -ENOIOCTLCMD, which vfs_ioctl turns into ENOTTY
            io = null;
        }
        if (io == null) {
            return devIoctl(caller, null, cmd, arg);
        }
        switch (io) {
            case VHOST_SET_BACKEND_FEATURES -> setBackendFeatures(arg);
            case VHOST_VDPA_GET_DEVICE_ID -> UserMemory.writeInt(arg, 0, dev.spec().virtioId());
            case VHOST_VDPA_GET_STATUS -> UserMemory.writeByte(arg, 0, (byte) dev.status());
            case VHOST_VDPA_SET_STATUS -> setStatus(arg);
            case VHOST_VDPA_GET_CONFIG -> getConfig(arg);
            case VHOST_VDPA_SET_CONFIG -> setConfig(arg);
            case VHOST_GET_FEATURES -> UserMemory.writeLong(arg, 0, dev.deviceFeatures());
            case VHOST_SET_FEATURES -> setFeatures(arg);
            case VHOST_VDPA_GET_VRING_NUM -> UserMemory.writeShort(arg, 0, (short) dev.vqNumMax());
            case VHOST_VDPA_GET_GROUP_NUM -> UserMemory.writeInt(arg, 0, dev.ngroups());
            case VHOST_VDPA_GET_AS_NUM -> UserMemory.writeInt(arg, 0, dev.nas());
            case VHOST_SET_LOG_BASE, VHOST_SET_LOG_FD -> throw KernelError.of(Errno.ENOTTY, "vhost-vdpa has no dirty log");
            case VHOST_VDPA_SET_CONFIG_CALL -> setConfigCall(caller, arg);
            case VHOST_GET_BACKEND_FEATURES -> UserMemory.writeLong(arg, 0, offeredBackendFeatures());
            case VHOST_VDPA_GET_IOVA_RANGE -> getIovaRange(arg);
            case VHOST_VDPA_GET_CONFIG_SIZE -> UserMemory.writeInt(arg, 0, dev.configSize());
            case VHOST_VDPA_GET_VQS_COUNT -> UserMemory.writeInt(arg, 0, dev.nvqs());
            case VHOST_VDPA_SUSPEND -> suspend();
            case VHOST_VDPA_RESUME -> resume();
            default -> {
                return devIoctl(caller, io, cmd, arg);
            }
        }
        return 0;
    }

    /** GET_BACKEND_FEATURES: the offered set, recomputed on every call. */
    public long offeredBackendFeatures() {
        long f = kernel.offeredBackendFeatures();
        if (dev.canSuspend()) {
            f |= F_SUSPEND;
        }
        if (dev.canResume()) {
            f |= F_RESUME;
        }
        if (dev.hasDescGroup()) {
            f |= F_DESC_ASID;
        }
        if (dev.hasPersistentMaps()) {
            f |= F_IOTLB_PERSIST;
        }
        return f | dev.deviceBackendFeatures();
    }

    private void setBackendFeatures(MemorySegment arg) {
        long v = UserMemory.readLong(arg, 0);
        long allowed = kernel.acceptedBackendFeatures();
        if ((v & ~allowed) != 0) {
            throw KernelError.of(Errno.EOPNOTSUPP, String.format("backend features 0x%x outside 0x%x (Linux %s)",
                    v, allowed, kernel.version()));
        }
        if ((v & F_SUSPEND) != 0 && !dev.canSuspend()) {
            throw KernelError.of(Errno.EOPNOTSUPP, "SUSPEND acked but the device cannot suspend");
        }
        if ((v & F_RESUME) != 0 && !dev.canResume()) {
            throw KernelError.of(Errno.EOPNOTSUPP, "RESUME acked but the device cannot resume");
        }
        if ((v & F_DESC_ASID) != 0 && (v & F_IOTLB_ASID) == 0) {
            throw KernelError.of(Errno.EINVAL, "DESC_ASID without IOTLB_ASID");
        }
        if ((v & F_DESC_ASID) != 0 && !dev.hasDescGroup()) {
            throw KernelError.of(Errno.EOPNOTSUPP, "DESC_ASID but the device has no descriptor group");
        }
        if ((v & F_IOTLB_PERSIST) != 0 && !dev.hasPersistentMaps()) {
            throw KernelError.of(Errno.EOPNOTSUPP, "IOTLB_PERSIST but maps are not persistent");
        }
        ackedBackendFeatures = v;
    }

    private void setStatus(MemorySegment arg) {
        int status = UserMemory.readByte(arg, 0) & 0xFF;
        int old = dev.status();
        if (status != 0 && (old & ~status) != 0) {
            throw KernelError.of(Errno.EINVAL, String.format("status 0x%x would clear bits of 0x%x", status, old));
        }
        if (status == 0) {
            reset(vdev.initialized() && !persistAcked());
        } else {
            dev.setStatus(status);
        }
    }

    private long[] configHeader(MemorySegment arg) {
        MemorySegment h = UserMemory.copyIn(arg, 0, CONFIG_HEADER);
        long off = Integer.toUnsignedLong(vhost_vdpa_config.off(h));
        long len = Integer.toUnsignedLong(vhost_vdpa_config.len(h));
        long size = dev.configSize();
        if (len == 0 || off > size) {
            throw KernelError.of(Errno.EINVAL, "config window off " + off + " len " + len + " of " + size);
        }
        if (len > size - off) {
            throw KernelError.of(Errno.EINVAL, "config window beyond " + size + " bytes (E2BIG)");
        }
        return new long[] {off, len};
    }

    private void getConfig(MemorySegment arg) {
        long[] w = configHeader(arg);
        byte[] data = dev.readConfigForDriver(w[0], (int) w[1]);
        UserMemory.copyOut(arg, CONFIG_HEADER, data);
    }

    private void setConfig(MemorySegment arg) {
        long[] w = configHeader(arg);
        MemorySegment data = UserMemory.copyIn(arg, CONFIG_HEADER, w[1]);
        dev.writeConfig(w[0], data.toArray(ValueLayout.JAVA_BYTE));
    }

    private void setFeatures(MemorySegment arg) {
        if ((dev.status() & S_FEATURES_OK) != 0) {
            throw KernelError.of(Errno.EBUSY, "features already negotiated (FEATURES_OK)");
        }
        long features = UserMemory.readLong(arg, 0);
        try {
            dev.setDriverFeatures(features);
        } catch (KernelError e) {
            throw KernelError.of(Errno.EINVAL, "device refused features: " + e.getMessage());
        }
        ackedFeatures = dev.negotiatedFeatures();
    }

    private void setConfigCall(FakeProcess caller, MemorySegment arg) {
        int fd = UserMemory.readInt(arg, 0);
        EventFdFile ctx = fd == vhost_h.VHOST_FILE_UNBIND() ? null : FakeInside.eventFdOf(caller, fd);
        configCall = ctx;
        // vhost_vdpa_config_cb: the driver's config interrupt signals the eventfd
        dev.setConfigCallback(ctx == null ? null : () -> ctx.signal(1));
    }

    private void getIovaRange(MemorySegment arg) {
        MemorySegment r = UserMemory.kernelBuffer(vhost_vdpa_iova_range.layout().byteSize());
        vhost_vdpa_iova_range.first(r, iotlbState.iovaFirst());
        vhost_vdpa_iova_range.last(r, iotlbState.iovaLast());
        UserMemory.copyOut(arg, 0, r);
    }

    private void suspend() {
        if (kernel.vhost().suspendNeedsDriverOk() && (dev.status() & S_DRIVER_OK) == 0) {
            return;
        }
        if (!dev.canSuspend()) {
            throw KernelError.of(Errno.EOPNOTSUPP, dev.name() + " has no suspend op");
        }
        dev.suspend();
        suspended = true;
    }

    private void resume() {
        if (kernel.vhost().suspendNeedsDriverOk() && (dev.status() & S_DRIVER_OK) == 0) {
            return;
        }
        if (!dev.canResume()) {
            throw KernelError.of(Errno.EOPNOTSUPP, dev.name() + " has no resume op");
        }
        dev.resume();
        suspended = false;
    }

    // ------------------------------------------------------------------ vhost_dev_ioctl

    /** vhost_vdpa_unlocked_ioctl's default: vhost_dev_ioctl, else the vring ioctls; SET_OWNER binds the mm. */
    private int devIoctl(FakeProcess caller, UapiIoctl io, long cmd, MemorySegment arg) {
        if (vdev.ioctl(caller, io, arg)) {
            if (io == UapiIoctl.VHOST_SET_OWNER) {
                dev.bindMm(FakeInside.addressSpace(caller));
            }
            return 0;
        }
        return vringIoctl(caller, io, cmd, arg);
    }

    // ------------------------------------------------------------------ per-vq ioctls

    private int vringIoctl(FakeProcess caller, UapiIoctl io, long cmd, MemorySegment arg) {
        MemorySegment s = null;
        int idx;
        if (io == UapiIoctl.VHOST_SET_VRING_NUM) {
            s = UserMemory.copyIn(arg, 0, STATE_SIZE);
            idx = vhost_vring_state.index(s);
        } else {
            idx = UserMemory.readInt(arg, 0);
        }
        if (Integer.toUnsignedLong(idx) >= dev.nvqs()) {
            throw KernelError.of(Errno.ENOBUFS, "vq index " + Integer.toUnsignedString(idx) + " >= " + dev.nvqs());
        }
        VhostVq vq = vdev.vq(idx);
        if (io == null) {
            throw KernelError.of(Errno.ENOTTY, String.format("unknown ioctl 0x%08X", cmd));
        }
        switch (io) {
            case VHOST_VDPA_SET_VRING_ENABLE -> {
                MemorySegment st = UserMemory.copyIn(arg, 0, STATE_SIZE);
                dev.setVqReady(idx, vhost_vring_state.num(st) != 0);
                return 0;
            }
            case VHOST_VDPA_GET_VRING_GROUP -> {
                VhostDev.writeState(arg, idx, checkedGroup(dev.vqGroup(idx)));
                return 0;
            }
            case VHOST_VDPA_GET_VRING_DESC_GROUP -> {
                if (!dev.hasDescGroup()) {
                    throw KernelError.of(Errno.EOPNOTSUPP, dev.name() + " has no descriptor group");
                }
                VhostDev.writeState(arg, idx, checkedGroup(dev.vqDescGroup(idx)));
                return 0;
            }
            case VHOST_VDPA_SET_GROUP_ASID -> {
                MemorySegment st = UserMemory.copyIn(arg, 0, STATE_SIZE);
                int asid = vhost_vring_state.num(st);
                // 6.12+ check the group here; 6.1 checks only the asid and leaves the group to the driver
                boolean groupOutside = idx >= dev.ngroups();
                if ((groupOutside && kernel.vhost().groupAsidChecksGroup()) || Integer.toUnsignedLong(asid) >= dev.nas()) {
                    throw KernelError.of(Errno.EINVAL, "group " + idx + " / asid " + Integer.toUnsignedString(asid)
                            + " outside " + dev.ngroups() + " groups / " + dev.nas() + " AS");
                }
                if (kernel.vhost().groupAsidBusyAfterDriverOk() && (dev.status() & S_DRIVER_OK) != 0) {
                    throw KernelError.of(Errno.EBUSY, "SET_GROUP_ASID after DRIVER_OK (Linux " + kernel.version() + ")");
                }
                if (groupOutside) {
                    return driverSetGroupAsidOutside(idx);
                }
                dev.setGroupAsid(idx, asid);
                return 0;
            }
            case VHOST_VDPA_GET_VRING_SIZE -> {
                if (!dev.spec().ops().has("get_vq_size")) {
                    throw KernelError.of(Errno.EOPNOTSUPP, dev.name() + " has no get_vq_size");
                }
                VhostDev.writeState(arg, idx, dev.vqSize(idx));
                return 0;
            }
            case VHOST_GET_VRING_BASE -> {
                long state = dev.getVqState(idx);
                if (packed()) {
                    vq.lastAvailIdx = (int) (state & 0xFFFF);
                    vq.lastUsedIdx = (int) ((state >>> 16) & 0xFFFF);
                } else {
                    vq.lastAvailIdx = (int) (state & 0xFFFF);
                }
            }
            default -> {
                // handled by the generic vring ioctl below
            }
        }
        vdev.vringIoctl(caller, io, idx, s, arg, packed(),
                kernel.vhost().vringNumChecksMax() ? vqNumMax : Long.MAX_VALUE);
        vringFollowUp(io, idx, vq);
        return 0;
    }

    /**
     * The driver's own group check where vhost-vdpa has none (6.1): vdpa_sim's set_group_asid refuses only
     * {@code group > ngroups} (docs/kernel-profiles.md), so group == ngroups binds no virtqueue and returns 0;
     * other drivers refuse any group outside their count.
     */
    private int driverSetGroupAsidOutside(int group) {
        if (group == dev.ngroups() && kernel.groupAsidAcceptsGroupCount(dev.mgmtDevice().profile().name())) {
            return 0;
        }
        throw KernelError.of(Errno.EINVAL, "set_group_asid: group " + group + " outside " + dev.ngroups() + " groups");
    }

    private int checkedGroup(int group) {
        if (group >= dev.ngroups()) {
            throw KernelError.of(Errno.EIO, "device reported group " + group);
        }
        return group;
    }

    private boolean packed() {
        return (ackedFeatures & RING_PACKED) != 0;
    }

    /** vhost_vdpa_vring_ioctl after vhost_vring_ioctl: the device's ops take the updated vhost copy. */
    private void vringFollowUp(UapiIoctl io, int idx, VhostVq vq) {
        switch (io) {
            case VHOST_SET_VRING_NUM -> dev.setVqNum(idx, vq.num);
            case VHOST_SET_VRING_ADDR -> {
                requireStopped("SET_VRING_ADDR");
                try {
                    dev.setVqAddress(idx, vq.desc, vq.avail, vq.used);
                } catch (KernelError e) {
                    throw KernelError.of(Errno.EINVAL, "device refused vq address: " + e.getMessage());
                }
            }
            case VHOST_SET_VRING_BASE -> {
                requireStopped("SET_VRING_BASE");
                dev.setVqState(idx, packed()
                        ? Integer.toUnsignedLong(vq.lastAvailIdx | (vq.lastUsedIdx << 16)) : vq.lastAvailIdx);
            }
            case VHOST_SET_VRING_CALL -> {
                EventFdFile call = vq.call;
                dev.setVqCallback(idx, call == null ? null : () -> call.signal(1));
            }
            default -> {
                // nothing for the device
            }
        }
    }

    /** 6.8+: ring layout changes need a stopped device (the vhost copy is already updated). */
    private void requireStopped(String what) {
        if (kernel.vhost().ringChangeNeedsStop() && (dev.status() & S_DRIVER_OK) != 0 && !suspended) {
            throw KernelError.of(Errno.EINVAL, what + " while DRIVER_OK and not suspended");
        }
    }

    static long bit(int n) {
        return 1L << n;
    }
}
