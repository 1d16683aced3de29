package org.vdpactl.vhost;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Reference;
import java.util.ConcurrentModificationException;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.vhost_msg_v2;
import org.vdpactl.ffi.gen.vhost.vhost_vdpa_config;
import org.vdpactl.ffi.gen.vhost.vhost_vdpa_iova_range;
import org.vdpactl.ffi.gen.vhost.vhost_vring_addr;
import org.vdpactl.ffi.gen.vhost.vhost_vring_file;
import org.vdpactl.ffi.gen.vhost.vhost_vring_state;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SessionFreeView;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;

/**
 * One open {@code /dev/vhost-vdpa-N}: a typed method per ioctl vhost-vdpa handles, IOTLB messages
 * written to the fd, and nothing else. Works over any {@link Syscalls} (the kernel or the fake).
 *
 * <p><b>Threading.</b> A handle is used by one thread at a time: every call encodes its argument
 * into one native buffer owned by the handle (no allocation per ioctl or per IOTLB message). Handing
 * a handle to another thread is fine (e.g. through an executor); calling it from two threads at once
 * is detected and refused with {@link ConcurrentModificationException}. The kernel's ownership is per
 * process, so any thread of the process that called {@link #setOwner()} may drive the device.
 *
 * <p><b>Errors.</b> Every kernel refusal is a {@link VhostException} naming the ioctl, the device,
 * the errno and a hint where the user can act. With {@linkplain #setReadBackVerification(boolean)
 * read-back verification} on, SET_FEATURES, SET_STATUS, SET_VRING_NUM and SET_VRING_BASE are checked
 * against what the device reports afterwards and a difference is a {@link ReadBackMismatchException}.
 *
 * <p><b>Kernel facts.</b> Opening resets the device; only one open file per node exists at a time
 * (a second open gets EBUSY); closing resets it again and drops every IOTLB mapping.
 */
public final class VhostVdpaDevice implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(VhostVdpaDevice.class);

    /** The fd value that unbinds a kick/call/config eventfd ({@code VHOST_FILE_UNBIND}). */
    public static final int UNBIND = vhost_h.VHOST_FILE_UNBIND();

    /** Scratch bytes per handle: the largest fixed argument is vhost_vring_addr (40); small configs fit too. */
    private static final long SCRATCH_BYTES = 512;
    private static final long CONFIG_HEADER = vhost_vdpa_config.layout().byteSize();
    /** Upper bound accepted by getConfig/setConfig (real config spaces are tens of bytes). */
    public static final int MAX_CONFIG_LENGTH = 1 << 16;

    private final Syscalls sys;
    private final int fd;
    private final String label;
    private final boolean closeFd;
    /**
     * The handle's native buffers. An automatic arena, freed by the garbage collector once the handle is unreachable,
     * not a shared one freed by {@link #close()}: closing a shared arena is a handshake with every thread of the JVM
     * (the JDK must see that none is inside an access to it), so a rehearsal of 256 devices, one lane thread each,
     * spent most of its CPU (a CPU profile of {@code bench orchestration --sizes 256}) closing its devices' and eventfds'
     * arenas, each close stopping all 256 lanes. A closed handle is refused before any syscall
     * ({@link #checkOpen()}), not by its memory.
     */
    private final Arena arena = Arena.ofAuto();
    private final MemorySegment scratch;
    private final MemorySegment u8;
    private final MemorySegment u16;
    private final MemorySegment u32;
    private final MemorySegment u64;
    private final MemorySegment state;
    private final MemorySegment file;
    private final MemorySegment addr;
    private final MemorySegment range;
    /**
     * The IOTLB message buffer (in {@link #arena}) as a {@link SessionFreeView}: the write downcall of every message
     * skips the arena's liveness bookkeeping (the IOTLB hot path). Safe because it is touched only by
     * {@link #writeIotlb(int, int, int, long, long, long, int)}, which runs under {@link #guard}, checks {@link #closed}
     * first and keeps the handle, and so its arena, reachable until the write has returned.
     */
    private final MemorySegment iotlb;
    /** Writes {@link #iotlb} to {@link #fd}; used, like it, only by the IOTLB write under {@link #guard}. */
    private final Syscalls.FdWriter iotlbWriter;
    private final OneThreadGuard guard;
    private final IotlbPlanWriter planWriter;
    private boolean closed;
    private boolean verifyReadBack;
    /** What this handle acked, or null when unknown (an fd passed in). */
    private BackendFeatures ackedBackend;
    /** True once SET_OWNER succeeded through this handle; null when unknown (an fd passed in). */
    private Boolean owner;
    private int deviceId = -1;
    private int vqCount = -1;
    private int asCount = -1;
    private IovaRange iovaRange;
    /** While a plan is applied: the bytes it maps in total (what a PA-mode device must pin), else 0. */
    private long planBytes;

    private VhostVdpaDevice(Syscalls sys, int fd, String label, boolean closeFd, boolean fresh) {
        this.sys = sys;
        this.fd = fd;
        this.label = label;
        this.closeFd = closeFd;
        this.scratch = arena.allocate(SCRATCH_BYTES, 8);
        this.u8 = scratch.asSlice(0, 1);
        this.u16 = scratch.asSlice(0, 2);
        this.u32 = scratch.asSlice(0, 4);
        this.u64 = scratch.asSlice(0, 8);
        this.state = scratch.asSlice(0, vhost_vring_state.layout().byteSize());
        this.file = scratch.asSlice(0, vhost_vring_file.layout().byteSize());
        this.addr = scratch.asSlice(0, vhost_vring_addr.layout().byteSize());
        this.range = scratch.asSlice(0, vhost_vdpa_iova_range.layout().byteSize());
        this.iotlb = SessionFreeView.of(arena.allocate(vhost_msg_v2.layout()));
        this.iotlbWriter = sys.writer(fd);
        this.guard = new OneThreadGuard(label);
        this.planWriter = new IotlbPlanWriter(label, new IotlbPlanWriter.MessageSink() {
            @Override
            public void checkAsid(int asid) {
                messageVersion(asid);
            }

            @Override
            public void write(int asid, int type, long iova, long size, long uaddr, int perm) {
                writeIotlb(messageVersion(asid), asid, type, iova, size, uaddr, perm);
            }
        });
        if (fresh) {
            this.ackedBackend = BackendFeatures.NONE;
            this.owner = Boolean.FALSE;
        }
    }

    /**
     * Opens a vhost-vdpa node with {@code O_RDWR | O_CLOEXEC}. The kernel resets the device on open.
     *
     * @throws VhostException EBUSY when the node is already open (by any process: one opener only),
     *                        ENXIO for a stale node whose device was deleted, ENOENT, EACCES/EPERM
     */
    public static VhostVdpaDevice open(Syscalls sys, String path) {
        int fd;
        try {
            fd = sys.open(path, libc_h.O_RDWR() | libc_h.O_CLOEXEC());
        } catch (SyscallException e) {
            List<String> holders = e.is(Errno.EBUSY) ? sys.holdersOf(path) : List.of();
            throw VhostException.from(e, "open", path, VhostErrorHints.forOpen(path, e.errno(), holders));
        }
        LOG.debug("opened {} as fd {}", path, fd);
        return new VhostVdpaDevice(sys, fd, path, true, true);
    }

    /**
     * Wraps an fd opened by someone else (a privileged parent passing it in, libvirt style). The fd
     * is not closed by {@link #close()}; ownership and acked backend features are unknown, so the
     * handle does not refuse calls on their account.
     */
    public static VhostVdpaDevice fromFd(Syscalls sys, int fd, String label) {
        return fromFd(sys, fd, label, false);
    }

    /** As {@link #fromFd(Syscalls, int, String)}; {@code closeFdOnClose} makes {@link #close()} close the fd. */
    public static VhostVdpaDevice fromFd(Syscalls sys, int fd, String label, boolean closeFdOnClose) {
        if (fd < 0) {
            throw new IllegalArgumentException("not a file descriptor: " + fd);
        }
        return new VhostVdpaDevice(sys, fd, label, closeFdOnClose, false);
    }

    /** The file descriptor. */
    public int fd() {
        return fd;
    }

    /** The node path or the label given to {@code fromFd}. */
    public String label() {
        return label;
    }

    /** The seam this handle talks to. */
    public Syscalls syscalls() {
        return sys;
    }

    /**
     * Turns read-back verification on or off (off by default; the CLI turns it on). When on,
     * SET_FEATURES, SET_STATUS, SET_VRING_NUM and SET_VRING_BASE are followed by a read that must
     * agree, else {@link ReadBackMismatchException}.
     */
    public VhostVdpaDevice setReadBackVerification(boolean on) {
        this.verifyReadBack = on;
        return this;
    }

    public boolean readBackVerification() {
        return verifyReadBack;
    }

    /**
     * The backend features this handle acked with {@link #setBackendFeatures}; NONE before any ack,
     * null for an fd passed in (the kernel has no way to read the acked set back).
     */
    public BackendFeatures ackedBackendFeatures() {
        return ackedBackend;
    }

    /**
     * Declares what was acked on an fd passed in by a parent, so that IOTLB messages use the right
     * format (V1 without IOTLB_MSG_V2) and non-zero ASIDs are refused without IOTLB_ASID.
     */
    public void assumeAckedBackendFeatures(BackendFeatures acked) {
        this.ackedBackend = acked;
    }

    // ------------------------------------------------------------------ features and ownership

    /**
     * VHOST_GET_FEATURES: the device's offered virtio features, verbatim (not filtered by vhost).
     * No owner needed. Errors: EFAULT only.
     */
    public VirtioFeatures getFeatures() {
        try (var _ = guard.enter()) {
            ioctl(VhostIoctl.GET_FEATURES, u64);
            return new VirtioFeatures(u64.get(ValueLayout.JAVA_LONG, 0), cachedDeviceId());
        }
    }

    /**
     * VHOST_SET_FEATURES: the driver features. The device keeps {@code features & offered} (vdpa_sim
     * drops unknown bits silently). Allowed any number of times before FEATURES_OK; no owner needed.
     * Errors: EBUSY once the status has FEATURES_OK (reset first); EINVAL when the device refuses
     * (vdpa_sim: VIRTIO_F_ACCESS_PLATFORM, bit 33, missing); EFAULT.
     * Read-back: bits the device does not offer (and thus dropped) are a mismatch.
     */
    public void setFeatures(VirtioFeatures features) {
        setFeatures(features.bits());
    }

    /** {@link #setFeatures(VirtioFeatures)} with the raw word. */
    public void setFeatures(long features) {
        try (var _ = guard.enter()) {
            u64.set(ValueLayout.JAVA_LONG, 0, features);
            ioctl(VhostIoctl.SET_FEATURES, u64);
            if (verifyReadBack) {
                ioctl(VhostIoctl.GET_FEATURES, u64);
                long offered = u64.get(ValueLayout.JAVA_LONG, 0);
                long dropped = features & ~offered;
                if (dropped != 0) {
                    throw new ReadBackMismatchException(VhostIoctl.SET_FEATURES.kernelName(), label, features, features & offered,
                            "the device does not offer " + new VirtioFeatures(dropped, cachedDeviceId())
                                    + "; the kernel dropped them silently");
                }
            }
        }
    }

    /**
     * VHOST_SET_OWNER: makes this process the owner; needed for every per-vq ioctl and every IOTLB
     * write. Errors: EBUSY when the device already has an owner (also a second call by the owner;
     * there is no working RESET_OWNER); ENOMEM.
     */
    public void setOwner() {
        try (var _ = guard.enter()) {
            ioctl(VhostIoctl.SET_OWNER, MemorySegment.NULL);
            owner = Boolean.TRUE;
        }
    }

    /**
     * VHOST_GET_BACKEND_FEATURES: the offered backend features, recomputed on every call (never what
     * was acked). 6.12 vdpa_sim: 0x17E. No owner needed. Errors: EFAULT.
     */
    public BackendFeatures getBackendFeatures() {
        try (var _ = guard.enter()) {
            ioctl(VhostIoctl.GET_BACKEND_FEATURES, u64);
            return new BackendFeatures(u64.get(ValueLayout.JAVA_LONG, 0));
        }
    }

    /**
     * VHOST_SET_BACKEND_FEATURES: acks backend features; replaces the previous ack; allowed any time,
     * no owner needed. Errors: EOPNOTSUPP for bit 0, bits above 8, SUSPEND/RESUME/DESC_ASID the device
     * cannot do, IOTLB_PERSIST without persistent maps; EINVAL for DESC_ASID without IOTLB_ASID in the
     * same value; EFAULT. ENABLE_AFTER_DRIVER_OK is accepted even when not offered.
     */
    public void setBackendFeatures(BackendFeatures features) {
        try (var _ = guard.enter()) {
            u64.set(ValueLayout.JAVA_LONG, 0, features.bits());
            ioctl(VhostIoctl.SET_BACKEND_FEATURES, u64);
            ackedBackend = features;
        }
    }

    /** {@link #negotiateBackendFeatures(BackendFeatures, BackendFeatures)} without optional bits. */
    public BackendFeatures negotiateBackendFeatures(BackendFeatures needed) {
        return negotiateBackendFeatures(needed, BackendFeatures.NONE);
    }

    /**
     * Acks exactly {@code offered ∩ (needed ∪ optional)} and returns it. Refuses before acking
     * anything when a needed bit (e.g. IOTLB_MSG_V2, IOTLB_BATCH, IOTLB_ASID, SUSPEND, RESUME) is not
     * offered. DESC_ASID is dropped when IOTLB_ASID would not be acked with it (the kernel's EINVAL).
     *
     * @throws MissingBackendFeaturesException naming the missing bits
     */
    public BackendFeatures negotiateBackendFeatures(BackendFeatures needed, BackendFeatures optional) {
        BackendFeatures offered = getBackendFeatures();
        if (!offered.containsAll(needed)) {
            throw new MissingBackendFeaturesException(label, offered, needed);
        }
        BackendFeatures ack = offered.and(needed.or(optional));
        if (ack.has(BackendFeature.DESC_ASID) && !ack.has(BackendFeature.IOTLB_ASID)) {
            ack = ack.minus(BackendFeatures.of(BackendFeature.DESC_ASID));
        }
        setBackendFeatures(ack);
        LOG.debug("{}: backend features offered {}, acked {}", label, offered, ack);
        return ack;
    }

    // ------------------------------------------------------------------ device facts

    /** VHOST_VDPA_GET_DEVICE_ID: the virtio device id (1 net, 2 block). No owner needed. Errors: EFAULT. */
    public int getDeviceId() {
        try (var _ = guard.enter()) {
            ioctl(VhostIoctl.VDPA_GET_DEVICE_ID, u32);
            deviceId = u32.get(ValueLayout.JAVA_INT, 0);
            return deviceId;
        }
    }

    /** The device type, or null for ids {@link VirtioDeviceId} does not list. */
    public VirtioDeviceId deviceType() {
        return VirtioDeviceId.of(getDeviceId());
    }

    /** VHOST_VDPA_GET_CONFIG_SIZE: bytes of the device's config space (vdpa_sim net 24, blk 96). Errors: EFAULT. */
    public int getConfigSize() {
        return getU32(VhostIoctl.VDPA_GET_CONFIG_SIZE);
    }

    /** VHOST_VDPA_GET_VQS_COUNT: number of virtqueues (vdpa_sim net 3). No owner needed. Errors: EFAULT. */
    public int getVqsCount() {
        try (var _ = guard.enter()) {
            ioctl(VhostIoctl.VDPA_GET_VQS_COUNT, u32);
            vqCount = u32.get(ValueLayout.JAVA_INT, 0);
            return vqCount;
        }
    }

    /**
     * VHOST_VDPA_GET_VRING_NUM: the device's maximum ring size (u16; vdpa_sim 256), the upper bound
     * of SET_VRING_NUM. No owner needed. Errors: EFAULT.
     */
    public int getVringNum() {
        try (var _ = guard.enter()) {
            ioctl(VhostIoctl.VDPA_GET_VRING_NUM, u16);
            return Short.toUnsignedInt(u16.get(ValueLayout.JAVA_SHORT, 0));
        }
    }

    /** VHOST_VDPA_GET_GROUP_NUM: number of virtqueue groups (vdpa_sim net 2). No owner needed. Errors: EFAULT. */
    public int getGroupNum() {
        return getU32(VhostIoctl.VDPA_GET_GROUP_NUM);
    }

    /** VHOST_VDPA_GET_AS_NUM: number of address spaces (ASIDs 0..n-1; vdpa_sim net 2). No owner needed. Errors: EFAULT. */
    public int getAsNum() {
        asCount = getU32(VhostIoctl.VDPA_GET_AS_NUM);
        return asCount;
    }

    /**
     * VHOST_VDPA_GET_IOVA_RANGE: the IOVA window fixed at open (both ends inclusive; vdpa_sim
     * [0, 2^64-1]). IOTLB UPDATEs outside it fail. No owner needed. Errors: EFAULT.
     */
    public IovaRange getIovaRange() {
        try (var _ = guard.enter()) {
            ioctl(VhostIoctl.VDPA_GET_IOVA_RANGE, range);
            iovaRange = new IovaRange(vhost_vdpa_iova_range.first(range), vhost_vdpa_iova_range.last(range));
            return iovaRange;
        }
    }

    // ------------------------------------------------------------------ status

    /** VHOST_VDPA_GET_STATUS: the virtio status byte. No owner needed. Errors: EFAULT. */
    public DeviceStatus getStatus() {
        try (var _ = guard.enter()) {
            ioctl(VhostIoctl.VDPA_GET_STATUS, u8);
            return new DeviceStatus(Byte.toUnsignedInt(u8.get(ValueLayout.JAVA_BYTE, 0)));
        }
    }

    /**
     * VHOST_VDPA_SET_STATUS: bits may only be added; 0 resets the device (status and negotiated
     * features 0, vqs disabled, callbacks and group→ASID bindings cleared, suspended cleared; the
     * vhost-side vring settings, ownership and IOTLB tables survive; without IOTLB_PERSIST the device
     * forgets its maps). No owner needed. Errors: EINVAL when {@code status} drops a bit that is set
     * (other than a reset to 0); the device's reset error; EFAULT.
     * Read-back: GET_STATUS must equal {@code status} (a device that refuses FEATURES_OK clears it).
     */
    public void setStatus(DeviceStatus status) {
        try (var _ = guard.enter()) {
            u8.set(ValueLayout.JAVA_BYTE, 0, (byte) status.bits());
            ioctl(VhostIoctl.VDPA_SET_STATUS, u8);
            if (verifyReadBack) {
                ioctl(VhostIoctl.VDPA_GET_STATUS, u8);
                int now = Byte.toUnsignedInt(u8.get(ValueLayout.JAVA_BYTE, 0));
                if (now != status.bits()) {
                    throw new ReadBackMismatchException(VhostIoctl.VDPA_SET_STATUS.kernelName(), label, status.bits(), now,
                            "device status is now " + new DeviceStatus(now)
                                    + (status.has(DeviceStatus.FEATURES_OK) && (now & DeviceStatus.FEATURES_OK) == 0
                                            ? ": the device refused the negotiated features" : ""));
                }
            }
        }
    }

    /** Adds {@code flag} to the current status (GET_STATUS then SET_STATUS). */
    public DeviceStatus addStatus(int flag) {
        DeviceStatus next = getStatus().with(flag);
        setStatus(next);
        return next;
    }

    /** SET_STATUS(0): resets the device (see {@link #setStatus}). */
    public void reset() {
        setStatus(DeviceStatus.RESET);
    }

    // ------------------------------------------------------------------ config space

    /**
     * VHOST_VDPA_GET_CONFIG: {@code length} bytes of config space at {@code offset}. No owner needed.
     * Errors: EINVAL for length 0, offset > size or length > size - offset; EFAULT; ENOMEM.
     */
    public byte[] getConfig(int offset, int length) {
        checkConfigLength(length);
        try (var _ = guard.enter();
                Arena tmp = CONFIG_HEADER + Integer.toUnsignedLong(length) > SCRATCH_BYTES ? Arena.ofConfined() : null) {
            MemorySegment cfg = configBuffer(tmp, length);
            vhost_vdpa_config.off(cfg, offset);
            vhost_vdpa_config.len(cfg, length);
            ioctl(VhostIoctl.VDPA_GET_CONFIG, cfg);
            return cfg.asSlice(CONFIG_HEADER).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    /**
     * VHOST_VDPA_SET_CONFIG: writes {@code data} at {@code offset} (vdpa_sim net stores it; vdpa_sim
     * blk regenerates its config on every read). No owner needed. Errors: EINVAL (bounds as for
     * GET_CONFIG); EFAULT; ENOMEM.
     */
    public void setConfig(int offset, byte[] data) {
        checkConfigLength(data.length);
        try (var _ = guard.enter();
                Arena tmp = CONFIG_HEADER + data.length > SCRATCH_BYTES ? Arena.ofConfined() : null) {
            MemorySegment cfg = configBuffer(tmp, data.length);
            vhost_vdpa_config.off(cfg, offset);
            vhost_vdpa_config.len(cfg, data.length);
            MemorySegment.copy(data, 0, cfg, ValueLayout.JAVA_BYTE, CONFIG_HEADER, data.length);
            ioctl(VhostIoctl.VDPA_SET_CONFIG, cfg);
        }
    }

    /** Config spaces are small; a huge length is a caller bug, not something to allocate for. */
    private static void checkConfigLength(int length) {
        if (length < 0 || length > MAX_CONFIG_LENGTH) {
            throw new IllegalArgumentException("config length must be 0.." + MAX_CONFIG_LENGTH + ": " + Integer.toUnsignedString(length));
        }
    }

    private MemorySegment configBuffer(Arena tmp, int length) {
        long bytes = CONFIG_HEADER + Integer.toUnsignedLong(length);
        MemorySegment cfg = tmp == null ? scratch.asSlice(0, bytes) : tmp.allocate(bytes, 8);
        cfg.fill((byte) 0);
        return cfg;
    }

    /** The whole config space (GET_CONFIG_SIZE, then GET_CONFIG). */
    public byte[] readConfig() {
        return getConfig(0, getConfigSize());
    }

    /** The whole config space decoded for this device's type (net, block; raw otherwise). */
    public DecodeResult<DeviceConfig> decodedConfig() {
        return VirtioConfigDecoder.decode(getDeviceId(), readConfig());
    }

    /**
     * VHOST_VDPA_SET_CONFIG_CALL: the eventfd signalled on config-change interrupts, or
     * {@link #UNBIND}. No owner needed. Errors: EBADF (not an open fd), EINVAL (not an eventfd; the
     * previous one stays installed), EFAULT.
     */
    public void setConfigCall(int eventFd) {
        try (var _ = guard.enter()) {
            u32.set(ValueLayout.JAVA_INT, 0, eventFd);
            ioctl(VhostIoctl.VDPA_SET_CONFIG_CALL, u32);
        }
    }

    /** {@link #setConfigCall(int)} with an {@link EventFd}. */
    public void setConfigCall(EventFd eventFd) {
        setConfigCall(eventFd.fd());
    }

    // ------------------------------------------------------------------ per-virtqueue (owner only)

    /**
     * VHOST_SET_VRING_NUM: the ring size of vq {@code index}. Owner only. Errors: EPERM (not owner);
     * ENOBUFS (index ≥ vq count); EINVAL for 0, not a power of two, > 0xFFFF or > the device max
     * (GET_VRING_NUM; 6.12+); EFAULT. Allowed while DRIVER_OK.
     * Read-back: {@code num} must not exceed GET_VRING_NUM (older kernels accept it silently).
     */
    public void setVringNum(int index, int num) {
        try (var _ = guard.enter()) {
            vringState(VhostIoctl.SET_VRING_NUM, index, num);
            if (verifyReadBack) {
                ioctl(VhostIoctl.VDPA_GET_VRING_NUM, u16);
                int max = Short.toUnsignedInt(u16.get(ValueLayout.JAVA_SHORT, 0));
                if (Integer.compareUnsigned(num, max) > 0) {
                    throw new ReadBackMismatchException(VhostIoctl.SET_VRING_NUM.kernelName(), label, num, max,
                            "vq " + index + ": ring size above the device maximum " + max);
                }
            }
        }
    }

    /**
     * VHOST_SET_VRING_ADDR: ring addresses of vq {@code index} as IOVAs. Owner only. Errors: EPERM;
     * ENOBUFS; EOPNOTSUPP (flags other than VHOST_VRING_F_LOG); EINVAL (avail not 2-aligned, used or
     * log not 4-aligned; DRIVER_OK and not suspended (6.8+); the device refused); EFAULT.
     */
    public void setVringAddr(int index, VringAddress a) {
        try (var _ = guard.enter()) {
            addr.fill((byte) 0);
            vhost_vring_addr.index(addr, index);
            vhost_vring_addr.flags(addr, a.flags());
            vhost_vring_addr.desc_user_addr(addr, a.desc());
            vhost_vring_addr.avail_user_addr(addr, a.avail());
            vhost_vring_addr.used_user_addr(addr, a.used());
            vhost_vring_addr.log_guest_addr(addr, a.log());
            ioctl(VhostIoctl.SET_VRING_ADDR, addr);
        }
    }

    /**
     * VHOST_SET_VRING_BASE: the next avail index of vq {@code index} (split ring; packed: last_avail
     * | last_used &lt;&lt; 16 with wrap counters in bit 15). Owner only. Errors: EPERM; ENOBUFS;
     * EINVAL (split base > 0xFFFF; DRIVER_OK and not suspended, 6.8+); the device's error; EFAULT.
     * Read-back: GET_VRING_BASE must return {@code base}.
     */
    public void setVringBase(int index, int base) {
        try (var _ = guard.enter()) {
            vringState(VhostIoctl.SET_VRING_BASE, index, base);
            if (verifyReadBack) {
                int now = vringState(VhostIoctl.GET_VRING_BASE, index, 0);
                if (now != base) {
                    throw new ReadBackMismatchException(VhostIoctl.SET_VRING_BASE.kernelName(), label, base, now, "vq " + index);
                }
            }
        }
    }

    /**
     * VHOST_GET_VRING_BASE: what the device reports as the vq's avail index now. No state check:
     * only meaningful before DRIVER_OK or after {@link #suspend()} (vdpa_sim: 0 after a reset, the
     * SET value before the vq starts). Owner only. Errors: EPERM; ENOBUFS; the device's error; EFAULT.
     */
    public int getVringBase(int index) {
        return guardedVringState(VhostIoctl.GET_VRING_BASE, index, 0);
    }

    /**
     * VHOST_SET_VRING_KICK: the eventfd whose writes kick vq {@code index} (forwarded synchronously
     * as the device's kick_vq), or {@link #UNBIND}. Owner only. Errors: EPERM; ENOBUFS; EBADF; EINVAL
     * (not an eventfd); EFAULT. Allowed while DRIVER_OK.
     */
    public void setVringKick(int index, int eventFd) {
        vringFile(VhostIoctl.SET_VRING_KICK, index, eventFd);
    }

    /** {@link #setVringKick(int, int)} with an {@link EventFd}. */
    public void setVringKick(int index, EventFd eventFd) {
        setVringKick(index, eventFd.fd());
    }

    /**
     * VHOST_SET_VRING_CALL: the eventfd signalled on used-buffer interrupts of vq {@code index}, or
     * {@link #UNBIND}. Re-issue after every reset (the device forgets callbacks). Owner only.
     * Errors: EPERM; ENOBUFS; EBADF; EINVAL (not an eventfd); EFAULT.
     */
    public void setVringCall(int index, int eventFd) {
        vringFile(VhostIoctl.SET_VRING_CALL, index, eventFd);
    }

    /** {@link #setVringCall(int, int)} with an {@link EventFd}. */
    public void setVringCall(int index, EventFd eventFd) {
        setVringCall(index, eventFd.fd());
    }

    /**
     * VHOST_VDPA_SET_VRING_ENABLE: marks vq {@code index} ready (or not) on the device. No DRIVER_OK
     * check in the kernel; enabling after DRIVER_OK is only promised with ENABLE_AFTER_DRIVER_OK.
     * Owner only. Errors: EPERM; ENOBUFS; EFAULT.
     */
    public void setVringEnable(int index, boolean enable) {
        guardedVringState(VhostIoctl.VDPA_SET_VRING_ENABLE, index, enable ? 1 : 0);
    }

    /**
     * VHOST_VDPA_GET_VRING_SIZE (6.9+): the size of vq {@code index} as the device sees it. Owner only.
     * Errors: EPERM; ENOBUFS; EOPNOTSUPP when the device has no get_vq_size (vdpa_sim with its default
     * batch_mapping=1); ENOTTY/EFAULT on kernels without the ioctl.
     */
    public int getVringSize(int index) {
        return guardedVringState(VhostIoctl.VDPA_GET_VRING_SIZE, index, 0);
    }

    /**
     * VHOST_VDPA_GET_VRING_GROUP: the group of vq {@code index} (vdpa_sim net: vq0/1 → 0, vq2 → 1).
     * Owner only. Errors: EPERM; ENOBUFS; EOPNOTSUPP (no groups); EIO (device answered ≥ group count).
     */
    public int getVringGroup(int index) {
        return guardedVringState(VhostIoctl.VDPA_GET_VRING_GROUP, index, 0);
    }

    /**
     * VHOST_VDPA_GET_VRING_DESC_GROUP (6.7+): the group of vq {@code index}'s descriptor table; the
     * device offers DESC_ASID when it has one. Owner only. Errors: EPERM; ENOBUFS; EOPNOTSUPP (no
     * descriptor groups, e.g. vdpa_sim); EIO.
     */
    public int getVringDescGroup(int index) {
        return guardedVringState(VhostIoctl.VDPA_GET_VRING_DESC_GROUP, index, 0);
    }

    /**
     * VHOST_VDPA_SET_GROUP_ASID: binds vq group {@code group} to address space {@code asid} (e.g. the
     * CVQ group to ASID 1 for a shadow CVQ). Undone by every reset. Owner only; IOTLB_ASID need not
     * be acked. Errors: EPERM; ENOBUFS (group ≥ vq count: the kernel's vq-index prefix); EINVAL (group
     * ≥ group count or asid ≥ AS count); EBUSY after DRIVER_OK (7.2 only); EOPNOTSUPP; EFAULT.
     */
    public void setGroupAsid(int group, int asid) {
        guardedVringState(VhostIoctl.VDPA_SET_GROUP_ASID, group, asid);
    }

    // ------------------------------------------------------------------ suspend / resume

    /**
     * VHOST_VDPA_SUSPEND: stops the device processing descriptors (then GET_VRING_BASE is
     * trustworthy, SET_VRING_ADDR/BASE are allowed). Does nothing and succeeds before DRIVER_OK
     * (6.9+). The device capability is VHOST_BACKEND_F_SUSPEND in GET_BACKEND_FEATURES; acking it is
     * not checked by the kernel. No owner needed. Errors: EOPNOTSUPP (driver has no suspend op); the
     * driver's error.
     */
    public void suspend() {
        try (var _ = guard.enter()) {
            ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
        }
    }

    /**
     * VHOST_VDPA_RESUME (6.4+): restarts a suspended device (kicks received meanwhile are replayed by
     * vdpa_sim). Succeeds without effect before DRIVER_OK. Gated by VHOST_BACKEND_F_RESUME (device
     * capability). No owner needed. Errors: EOPNOTSUPP (driver has no resume op); the driver's error;
     * on 6.1 the ioctl does not exist (EPERM / EFAULT).
     */
    public void resume() {
        try (var _ = guard.enter()) {
            ioctl(VhostIoctl.VDPA_RESUME, MemorySegment.NULL);
        }
    }

    // ------------------------------------------------------------------ IOTLB

    /**
     * Maps {@code [iova, iova+size)} to host memory at {@code uaddr} in address space {@code asid}
     * with one UPDATE. Owner only. The kernel reports every failure (overlap, outside the IOVA range,
     * unknown ASID, not owner, entry limit, memlock) as EFAULT; size 0 as EINVAL.
     *
     * @throws IllegalStateException for asid ≠ 0 when this handle acked backend features without
     *                               IOTLB_ASID (the kernel would silently map into AS 0)
     */
    public void map(int asid, long iova, long size, long uaddr, IotlbPermission perm) {
        try (var _ = guard.enter()) {
            int version = messageVersion(asid);
            writeIotlb(version, asid, IotlbMessageType.UPDATE.code(), iova, size, uaddr, perm.code());
        }
    }

    /** {@link #map(int, long, long, long, IotlbPermission)} of a region. */
    public void map(int asid, IotlbRegion region) {
        map(asid, region.iova(), region.size(), region.hostAddress(), region.perm());
    }

    /**
     * Removes every mapping of address space {@code asid} that overlaps {@code [iova, iova+size)}:
     * whole entries, never split; unmapped ranges succeed. Owner only. EFAULT when the ASID has no
     * address space yet.
     */
    public void unmap(int asid, long iova, long size) {
        try (var _ = guard.enter()) {
            writeIotlb(messageVersion(asid), asid, IotlbMessageType.INVALIDATE.code(), iova, size, 0, 0);
        }
    }

    /**
     * Maps {@code regions} into {@code asid} as bounded batches planned by {@code planner}: checks
     * every region against GET_IOVA_RANGE (and for overlaps and the entry limit) before anything is
     * written, then applies the plan (see {@link #apply(IotlbPlan)}).
     */
    public IotlbPlan mapAll(int asid, List<IotlbRegion> regions, IotlbBatchPlanner planner) {
        IotlbPlan plan = planner.planMap(asid, regions, getIovaRange());
        apply(plan);
        return plan;
    }

    /** {@link #mapAll(int, List, IotlbBatchPlanner)} with the default planner. */
    public IotlbPlan mapAll(int asid, List<IotlbRegion> regions) {
        return mapAll(asid, regions, IotlbBatchPlanner.defaults());
    }

    /** Invalidates {@code regions} in {@code asid} in batches. */
    public IotlbPlan unmapAll(int asid, List<IotlbRegion> regions) {
        IotlbPlan plan = IotlbBatchPlanner.defaults().planUnmap(asid, regions);
        apply(plan);
        return plan;
    }

    /**
     * Writes every message of {@code plan} in order, one write(2) each, encoding into this handle's
     * one IOTLB buffer (no allocation per message). On a failure the UPDATEs already written are
     * rolled back (an open batch is ended, then they are invalidated) and the error names the
     * failing message; rollback failures are attached as suppressed exceptions.
     */
    public void apply(IotlbPlan plan) {
        try (var _ = guard.enter()) {
            planBytes = plan.mappedBytes();
            planWriter.apply(plan);
        } finally {
            planBytes = 0;
        }
    }

    /**
     * Writes one message exactly as given (V1 or V2 format, any type, any ASID): no client-side
     * checks. For tests and tools that must reproduce what the kernel rejects. Owner only.
     * Errors: EINVAL (top-level type not V1/V2, UPDATE with size 0); EFAULT for every handler
     * failure (the exception's hint lists the causes the kernel folds into it).
     */
    public void writeIotlb(IotlbMessage m) {
        try (var _ = guard.enter()) {
            writeIotlb(m.version(), m.asid(), m.type(), m.iova(), m.size(), m.uaddr(), m.perm());
        }
    }

    /**
     * BATCH_BEGIN for {@code asid}: set_map devices defer their table rebuild to the BATCH_END; creates
     * the address space. Allowed again for the same ASID. Owner only. Errors: EFAULT (asid ≥ AS count,
     * another ASID's batch is open, not owner).
     */
    public void batchBegin(int asid) {
        batchMessage(asid, IotlbMessageType.BATCH_BEGIN);
    }

    /**
     * BATCH_END for {@code asid}: set_map devices push the whole address space once. Allowed outside a
     * batch. Owner only. Errors: EFAULT (the ASID has no address space yet, not owner).
     */
    public void batchEnd(int asid) {
        batchMessage(asid, IotlbMessageType.BATCH_END);
    }

    private void batchMessage(int asid, IotlbMessageType type) {
        try (var _ = guard.enter()) {
            writeIotlb(messageVersion(asid), asid, type.code(), 0, 0, 0, 0);
        }
    }

    private int messageVersion(int asid) {
        BackendFeatures acked = ackedBackend;
        if (acked == null || acked.isEmpty() && asid == 0) {
            return IotlbCodec.V2; // unknown or nothing acked yet: the kernel accepts V2 regardless
        }
        if (asid != 0 && !acked.has(BackendFeature.IOTLB_ASID)) {
            throw new IllegalStateException(label + ": IOTLB message for ASID " + asid + " but "
                    + BackendFeature.IOTLB_ASID.kernelName() + " was not acked (acked " + acked
                    + "); the kernel would silently use address space 0");
        }
        return acked.has(BackendFeature.IOTLB_MSG_V2) ? IotlbCodec.V2 : IotlbCodec.V1;
    }

    private void writeIotlb(int version, int asid, int type, long iova, long size, long uaddr, int perm) {
        checkOpen();
        IotlbCodec.encode(iotlb, version, asid, type, iova, size, uaddr, perm);
        long n;
        try {
            n = iotlbWriter.write(iotlb);
        } catch (SyscallException e) {
            throw iotlbError(e, version, asid, type, iova, size, uaddr, perm);
        } finally {
            // the view does not hold the arena: the handle must stay reachable while the kernel reads the message
            Reference.reachabilityFence(this);
        }
        if (n != IotlbCodec.MESSAGE_SIZE) {
            throw new VhostProtocolException("write IOTLB " + new IotlbMessage(version, asid, type, iova, size, uaddr, perm),
                    label, "write returned " + n + ", expected " + IotlbCodec.MESSAGE_SIZE);
        }
    }

    private VhostException iotlbError(SyscallException e, int version, int asid, int type, long iova, long size, long uaddr,
            int perm) {
        IotlbMessage m = new IotlbMessage(version, asid, type, iova, size, uaddr, perm);
        String hint = VhostErrorHints.forIotlbWrite(m, e.errno(), owner, iovaRange, asCount, Math.max(planBytes, size));
        return VhostException.from(e, "write IOTLB " + m, label, hint);
    }

    // ------------------------------------------------------------------ plumbing

    private int getU32(VhostIoctl op) {
        try (var _ = guard.enter()) {
            ioctl(op, u32);
            return u32.get(ValueLayout.JAVA_INT, 0);
        }
    }

    private int guardedVringState(VhostIoctl op, int index, int num) {
        try (var _ = guard.enter()) {
            return vringState(op, index, num);
        }
    }

    private int vringState(VhostIoctl op, int index, int num) {
        vhost_vring_state.index(state, index);
        vhost_vring_state.num(state, num);
        ioctl(op, state);
        return vhost_vring_state.num(state);
    }

    private void vringFile(VhostIoctl op, int index, int eventFd) {
        try (var _ = guard.enter()) {
            vhost_vring_file.index(file, index);
            vhost_vring_file.fd(file, eventFd);
            ioctl(op, file);
        }
    }

    private int cachedDeviceId() {
        if (deviceId < 0) {
            ioctl(VhostIoctl.VDPA_GET_DEVICE_ID, u32);
            deviceId = u32.get(ValueLayout.JAVA_INT, 0);
        }
        return deviceId;
    }

    private int ioctl(VhostIoctl op, MemorySegment arg) {
        checkOpen();
        try {
            return sys.ioctl(fd, op.code(), arg);
        } catch (SyscallException e) {
            throw VhostException.from(e, "ioctl " + op.kernelName(), label,
                    VhostErrorHints.forIoctl(op, e.errno(), owner, vqCount, asCount));
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(label + ": device handle is closed");
        }
    }

    /**
     * Closes the fd (unless it was passed in without ownership). Idempotent. The native buffers go with the handle
     * ({@link #arena}); every call after this one is refused.
     */
    @Override
    public void close() {
        try (var _ = guard.enter()) {
            if (closed) {
                return;
            }
            closed = true;
            if (closeFd) {
                try {
                    sys.close(fd);
                } catch (SyscallException e) {
                    LOG.warn("{}: close(fd {}) failed: {}", label, fd, Errno.describe(e.errno()));
                }
            }
        }
    }

    @Override
    public String toString() {
        return "VhostVdpaDevice[" + label + ", fd " + fd + (closed ? ", closed" : "") + "]";
    }
}
