package org.vdpactl.orchestra;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.time.Clock;
import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.BackendFeatures;
import org.vdpactl.vhost.DeviceStatus;
import org.vdpactl.vhost.EventFd;
import org.vdpactl.vhost.IotlbBatchPlanner;
import org.vdpactl.vhost.IotlbMessage;
import org.vdpactl.vhost.IotlbMessageType;
import org.vdpactl.vhost.IotlbPlan;
import org.vdpactl.vhost.IotlbRegion;
import org.vdpactl.vhost.IovaRange;
import org.vdpactl.vhost.NetConfig;
import org.vdpactl.vhost.VhostIoctl;
import org.vdpactl.vhost.VhostProtocolException;
import org.vdpactl.vhost.VhostVdpaDevice;
import org.vdpactl.vhost.VirtioConfigDecoder;
import org.vdpactl.vhost.VirtioDeviceId;
import org.vdpactl.vhost.VirtioFeatures;
import org.vdpactl.vhost.VringAddress;

/**
 * One open device of a rehearsal: its {@link VhostVdpaDevice} handle, the facts read at setup, the
 * control-queue eventfds, and what the rehearsal has done to it so far (so that a failure anywhere
 * can be undone). Every call goes through the {@link CallRecorder}. One thread at a time.
 */
final class DeviceSession implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DeviceSession.class);
    /** Largest ring the rehearsal configures: each ring area then fits one page. */
    static final int MAX_QUEUE_SIZE = 256;
    /** Bits the rehearsal never negotiates: it drives split rings without event-index suppression. */
    private static final long UNWANTED_FEATURES = VirtioFeatures.bit(VirtioFeatures.F_RING_PACKED) | VirtioFeatures.bit(VirtioFeatures.RING_F_EVENT_IDX);
    private static final String SET_STATUS = VhostIoctl.VDPA_SET_STATUS.kernelName();
    /** SUSPEND and RESUME are optional: without them {@link StopFallback} stops and restarts by reset. */
    private static final BackendFeatures NEEDED = BackendFeatures.of(BackendFeature.IOTLB_MSG_V2, BackendFeature.IOTLB_BATCH);

    private static final Map<IotlbMessageType, String> IOTLB_WRITE_NAMES = iotlbWriteNames();

    private static Map<IotlbMessageType, String> iotlbWriteNames() {
        Map<IotlbMessageType, String> m = new EnumMap<>(IotlbMessageType.class);
        for (IotlbMessageType t : IotlbMessageType.values()) {
            m.put(t, "write IOTLB " + t.name());
        }
        return m;
    }

    /** What the device's memory map holds, as far as the rehearsal knows. */
    enum Memory {
        /** Nothing of ours is mapped. */
        UNMAPPED,
        /** The whole layout is mapped and pushed to the device. */
        MAPPED,
        /** The vhost table holds our layout but the device dropped its copy (reset without IOTLB_PERSIST). */
        TABLE_ONLY,
        /** A map or unmap failed part-way. */
        PARTIAL
    }

    final DeviceTarget target;
    final CallRecorder rec;
    private final VhostVdpaDevice dev;
    private final Syscalls sys;
    private final List<EventFd> eventFds = new ArrayList<>();
    private EventFd cvqKick;
    private EventFd cvqCall;
    /**
     * The guest notifiers of the data virtqueues: QEMU binds a kick and a call eventfd on every
     * virtqueue at every start; the rehearsal binds them too (the driver's set_vq_cb and kick set-up
     * are part of a restart) but carries no data traffic, so one pair serves every data virtqueue of
     * the device: a rehearsal of 256 devices of 32 virtqueues would otherwise hold 16k eventfds.
     */
    private EventFd dataKick;
    private EventFd dataCall;
    /**
     * IOTLB entries written one message at a time, outside the guest memory's batch (shadow rings,
     * the control queue's own address space), as (asid, iova, size) invalidations ready to undo
     * them: vhost keeps them in its table across a device reset.
     */
    private final List<IotlbMessage> looseMaps = new ArrayList<>();
    /**
     * The address space of a batch whose BATCH_BEGIN was written but whose BATCH_END was not, or
     * -1: vhost keeps {@code in_batch} until a BATCH_END, an open or a release, not across a
     * SET_STATUS 0 (drivers/vhost/vdpa.c of 6.1, 6.12 and 7.2: vhost_vdpa_set_status resets through
     * vdpa_reset / _compat_vdpa_reset; only vhost_vdpa_reset, called by open and release, clears
     * in_batch), and vhost_vdpa_process_iotlb_msg refuses a message of another address space while
     * it is set (EINVAL, which vhost_chr_write_iter turns into EFAULT).
     */
    private int openBatchAsid = -1;
    /** Span names of the per-virtqueue calls, built once per session instead of once per call. */
    private VqCallNames names = new VqCallNames(0);

    // facts
    private int deviceId;
    private int vqCount;
    private int queueSize;
    private long offeredFeatures;
    private BackendFeatures acked = BackendFeatures.NONE;
    private IovaRange iovaRange;
    private int maxQueuePairs = 1;
    private AddressSpaces addressSpaces = AddressSpaces.NOT_READ;

    // what has been done
    private boolean driverOk;
    private boolean suspended;
    private boolean stoppedByReset;
    /** True while the device runs with shadow vrings (until its next reset). */
    private boolean shadowVrings;
    private Memory memory = Memory.UNMAPPED;
    private boolean tableMayHoldEntries;
    private boolean touched;
    private int activeQueuePairs = 1;

    private DeviceSession(DeviceTarget target, VhostVdpaDevice dev, Syscalls sys, CallRecorder rec) {
        this.target = target;
        this.dev = dev;
        this.sys = sys;
        this.rec = rec;
    }

    /** Opens the node (the kernel resets the device on open); the open is the session's first span. */
    static DeviceSession open(Syscalls sys, Clock clock, DeviceTarget target) {
        CallRecorder rec = new CallRecorder(target.name(), clock);
        VhostVdpaDevice dev = rec.call("open " + target.path(), () -> VhostVdpaDevice.open(sys, target.path()));
        return new DeviceSession(target, dev, sys, rec);
    }

    /**
     * SET_OWNER, backend features, device facts and (net with a control queue) the kick/call
     * eventfds. {@code persistentMaps} acks IOTLB_PERSIST so maps survive a reset (premap on the
     * device's own destination) and fails when the device cannot.
     */
    void setUp(boolean persistentMaps) {
        rec.enter(Phase.SETUP, null);
        rec.run(VhostIoctl.SET_OWNER.kernelName(), dev::setOwner);
        // ENABLE_AFTER_DRIVER_OK: acked where offered, so that the device's promise (a vring enabled after
        // DRIVER_OK starts) is known before the rehearsal relies on it (see enablesAfterDriverOk)
        BackendFeatures optional = BackendFeatures.of(BackendFeature.SUSPEND, BackendFeature.RESUME, BackendFeature.IOTLB_ASID,
                BackendFeature.ENABLE_AFTER_DRIVER_OK);
        BackendFeatures needed = persistentMaps ? NEEDED.with(BackendFeature.IOTLB_PERSIST) : NEEDED;
        acked = rec.call("VHOST_GET/SET_BACKEND_FEATURES", () -> dev.negotiateBackendFeatures(needed, optional));
        deviceId = rec.call(VhostIoctl.VDPA_GET_DEVICE_ID.kernelName(), dev::getDeviceId);
        vqCount = rec.call(VhostIoctl.VDPA_GET_VQS_COUNT.kernelName(), dev::getVqsCount);
        names = new VqCallNames(vqCount);
        queueSize = Math.min(MAX_QUEUE_SIZE, rec.call(VhostIoctl.VDPA_GET_VRING_NUM.kernelName(), dev::getVringNum));
        offeredFeatures = rec.call(VhostIoctl.GET_FEATURES.kernelName(), () -> dev.getFeatures().bits());
        iovaRange = rec.call(VhostIoctl.VDPA_GET_IOVA_RANGE.kernelName(), dev::getIovaRange);
        if (isNet() && has(VirtioFeatures.NET_F_MQ)) {
            byte[] config = rec.call(VhostIoctl.VDPA_GET_CONFIG.kernelName(), dev::readConfig);
            maxQueuePairs = VirtioConfigDecoder.net(config).toOptional().map(NetConfig::maxVirtqueuePairs)
                    .filter(p -> p != null && p > 0).orElse(1);
        }
        if (hasControlQueue()) {
            cvqKick = newEventFd();
            cvqCall = newEventFd();
        }
        if (vqCount > (hasControlQueue() ? 1 : 0)) {
            dataKick = newEventFd();
            dataCall = newEventFd();
        }
        LOG.debug("{}: {} vqs of size {}, features {}, backend {}", target.name(), vqCount, queueSize,
                Long.toHexString(offeredFeatures), acked);
    }

    private EventFd newEventFd() {
        EventFd e = rec.call("eventfd", () -> EventFd.create(sys));
        eventFds.add(e);
        return e;
    }

    // ---------------------------------------------------------------- facts

    boolean isNet() {
        return deviceId == VirtioDeviceId.NET.id();
    }

    private boolean has(int featureBit) {
        return (offeredFeatures & (1L << featureBit)) != 0;
    }

    /** The features the rehearsal negotiates: everything offered but packed rings and event index. */
    long wantedFeatures() {
        return offeredFeatures & ~UNWANTED_FEATURES;
    }

    long offeredFeatures() {
        return offeredFeatures;
    }

    boolean hasControlQueue() {
        return isNet() && has(VirtioFeatures.NET_F_CTRL_VQ);
    }

    boolean hasMultiQueue() {
        return hasControlQueue() && has(VirtioFeatures.NET_F_MQ) && maxQueuePairs > 1;
    }

    int maxQueuePairs() {
        return maxQueuePairs;
    }

    int vqCount() {
        return vqCount;
    }

    /** Index of the control queue (the last one), or -1. */
    int controlQueueIndex() {
        return hasControlQueue() ? vqCount - 1 : -1;
    }

    int queueSize() {
        return queueSize;
    }

    boolean canResume() {
        return acked.has(BackendFeature.RESUME);
    }

    /**
     * True when the vrings are enabled after DRIVER_OK, the control queue first and the data queues
     * after the control queue's state load, as QEMU 8.2+ does (net/vhost-vdpa.c: vhost_vdpa_net_cvq_load
     * enables the CVQ, loads the state through it, then enables the data queues; vhost_vdpa_net_data_load
     * without a CVQ), so that no packet flows before the MAC/MQ state is back. Only where the device
     * offers VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK (6.6+): without it the vhost-vdpa contract has the
     * driver enable every vring before DRIVER_OK, and a device may ignore a later enable (6.1's
     * mlx5_vdpa_set_vq_ready only sets its ready flag: the queue stays in INIT), so there the rehearsal
     * enables each vring with its set-up, before DRIVER_OK (QEMU 10.0 enables late regardless).
     */
    boolean enablesAfterDriverOk() {
        return acked.has(BackendFeature.ENABLE_AFTER_DRIVER_OK);
    }

    /** What the rehearsal does instead of SUSPEND / RESUME on this device. */
    StopFallback fallback() {
        return StopFallback.of(acked);
    }

    /** True when the last stop was a reset standing in for SUSPEND: ring state must come from guest memory. */
    boolean stoppedByReset() {
        return stoppedByReset;
    }

    boolean persistentMaps() {
        return acked.has(BackendFeature.IOTLB_PERSIST);
    }

    IovaRange iovaRange() {
        return iovaRange;
    }

    /**
     * The groups and address spaces, read on first use (recorded in the current phase): after
     * FEATURES_OK, as QEMU reads them, since a driver may place its control queue by the negotiated
     * features (mlx5's is vq 2 without VIRTIO_NET_F_MQ).
     */
    AddressSpaces addressSpaces() {
        if (addressSpaces == AddressSpaces.NOT_READ) {
            addressSpaces = AddressSpaces.read(this, dev, acked);
        }
        return addressSpaces;
    }

    EventFd cvqKick() {
        return cvqKick;
    }

    EventFd cvqCall() {
        return cvqCall;
    }

    Syscalls syscalls() {
        return sys;
    }

    // ---------------------------------------------------------------- state

    boolean driverOk() {
        return driverOk;
    }

    boolean suspended() {
        return suspended;
    }

    Memory memory() {
        return memory;
    }

    /** True once a window call ran on the device (destinations: something to undo). */
    boolean touched() {
        return touched;
    }

    void untouched() {
        touched = false;
    }

    /** Queue pairs the device was last told to use (1 after a reset). */
    int activeQueuePairs() {
        return activeQueuePairs;
    }

    // ---------------------------------------------------------------- recorded operations

    void suspend() {
        touched = true;
        if (!fallback().suspend()) {
            // QEMU's vhost_vdpa_suspend without SUSPEND: vhost_vdpa_reset_device
            driverOk = false;
            rec.run(SET_STATUS + " 0 [" + StopFallback.RESET_INSTEAD_OF_SUSPEND + "]", dev::reset);
            stoppedByReset = true;
            activeQueuePairs = 1;
        shadowVrings = false;
            if (memory == Memory.MAPPED && !persistentMaps()) {
                memory = Memory.TABLE_ONLY;
            }
            return;
        }
        suspended = true; // a failed suspend may have stopped part of the device: assume stopped
        rec.run(VhostIoctl.VDPA_SUSPEND.kernelName(), dev::suspend);
    }

    /** The used ring's idx of a vq read from guest memory, recorded as a (memory) call. */
    int usedIndexFromGuest(int vq, IntSupplier read) {
        return rec.call("used idx vq" + vq + " from guest memory [" + StopFallback.RING_STATE_FROM_GUEST + "]",
                read::getAsInt);
    }

    void resume() {
        touched = true;
        rec.run(VhostIoctl.VDPA_RESUME.kernelName(), dev::resume);
        suspended = false;
    }

    void reset() {
        touched = true;
        driverOk = false;
        rec.run(SET_STATUS + " 0 (reset)", dev::reset);
        suspended = false;
        stoppedByReset = false;
        activeQueuePairs = 1;
        shadowVrings = false;
        if (memory == Memory.MAPPED && !persistentMaps()) {
            memory = Memory.TABLE_ONLY;
        }
    }

    /** The reset that stands in for RESUME on a device without it (QEMU's vhost_vdpa_reset_status). */
    void resetInsteadOfResume() {
        touched = true;
        driverOk = false;
        rec.run(SET_STATUS + " 0 [" + StopFallback.RESTART_INSTEAD_OF_RESUME + "]", dev::reset);
        suspended = false;
        stoppedByReset = false;
        activeQueuePairs = 1;
        shadowVrings = false;
        if (memory == Memory.MAPPED && !persistentMaps()) {
            memory = Memory.TABLE_ONLY;
        }
    }

    DeviceStatus status() {
        return rec.call(VhostIoctl.VDPA_GET_STATUS.kernelName(), dev::getStatus);
    }

    byte[] readConfig() {
        return rec.call(VhostIoctl.VDPA_GET_CONFIG.kernelName(), dev::readConfig);
    }

    int vringBase(int vq) {
        return rec.call(names.name(VqCallNames.GET_BASE, vq), () -> dev.getVringBase(vq));
    }

    /**
     * ACK, DRIVER, the call eventfds of every virtqueue (unless {@code shadowed}: shadow vrings get
     * theirs with their set-up), SET_FEATURES, FEATURES_OK and the backend features acked again: the
     * start of a device after a reset, in QEMU 7.2's order (vhost_net_start sets the guest notifiers
     * before vhost_dev_start; vhost_dev_set_features acks the backend features after FEATURES_OK).
     */
    void negotiate(long features, boolean shadowed) {
        touched = true;
        int ack = DeviceStatus.ACKNOWLEDGE;
        int drv = ack | DeviceStatus.DRIVER;
        addStatusChecked("ACKNOWLEDGE", ack);
        addStatusChecked("DRIVER", drv);
        if (!shadowed) {
            for (int vq = 0; vq < vqCount; vq++) {
                bindCall(vq);
            }
        }
        rec.run(VhostIoctl.SET_FEATURES.kernelName(), () -> dev.setFeatures(features));
        addStatusChecked("FEATURES_OK", drv | DeviceStatus.FEATURES_OK);
        ackBackendFeaturesAgain();
    }

    /**
     * GET and SET_BACKEND_FEATURES with the set acked at set-up, at every start as QEMU does
     * (hw/virtio/vhost.c vhost_dev_set_features -> vhost_vdpa_set_backend_cap on each vhost_dev_start).
     * Linux keeps the ack of an open node across a device reset, so the kernel would not need it; it
     * is here because the real client does it inside its downtime (two ioctls that reach no driver).
     */
    private void ackBackendFeaturesAgain() {
        rec.call(VhostIoctl.GET_BACKEND_FEATURES.kernelName(), dev::getBackendFeatures);
        rec.run(VhostIoctl.SET_BACKEND_FEATURES.kernelName(), () -> dev.setBackendFeatures(acked));
    }

    private void bindCall(int vq) {
        EventFd call = vq == controlQueueIndex() ? cvqCall : dataCall;
        rec.run(names.name(VqCallNames.SET_CALL, vq), () -> dev.setVringCall(vq, call));
    }

    private void bindKick(int vq) {
        EventFd kick = vq == controlQueueIndex() ? cvqKick : dataKick;
        rec.run(names.name(VqCallNames.SET_KICK, vq), () -> dev.setVringKick(vq, kick));
    }

    /**
     * SET_STATUS, then GET_STATUS as QEMU's vhost_vdpa_add_status does: the kernel's set_status
     * returns nothing, so a driver that fails (mlx5 at DRIVER_OK, FEATURES_OK refused) only sets
     * FAILED or drops the bit while the ioctl returns 0. Without the read-back the failure surfaced
     * later as a control-queue timeout, blamed on the wrong call.
     */
    private void addStatusChecked(String label, int status) {
        String call = SET_STATUS + " " + label;
        rec.run(call, () -> dev.setStatus(new DeviceStatus(status)));
        DeviceStatus now = rec.call(VhostIoctl.VDPA_GET_STATUS.kernelName() + " (after " + label + ")", dev::getStatus);
        if (now.has(DeviceStatus.FAILED) || (now.bits() & status) != status) {
            throw rec.failed(call, new VhostProtocolException(call, target.name(), "the ioctl returned 0 but the status reads back "
                    + now + (now.has(DeviceStatus.FAILED)
                    ? ": the driver set FAILED (it could not do what " + label + " asks)"
                    : ": the device did not accept " + label)));
        }
    }

    /**
     * num, base, addr, kick and (unless {@link #enablesAfterDriverOk}) enable: one virtqueue (its call
     * eventfd was bound by {@link #negotiate}).
     */
    void configureVring(int vq, int base, VringAddress address) {
        touched = true;
        rec.run(names.name(VqCallNames.SET_NUM, vq), () -> dev.setVringNum(vq, queueSize));
        rec.run(names.name(VqCallNames.SET_BASE, vq), () -> dev.setVringBase(vq, base));
        rec.run(names.name(VqCallNames.SET_ADDR, vq), () -> dev.setVringAddr(vq, address));
        bindKick(vq);
        if (!enablesAfterDriverOk()) {
            enableVring(vq);
        }
    }

    /** VHOST_VDPA_SET_VRING_ENABLE(1) on one virtqueue. */
    void enableVring(int vq) {
        touched = true;
        rec.run(names.name(VqCallNames.ENABLE, vq), () -> dev.setVringEnable(vq, true));
    }

    /**
     * One shadowed virtqueue as QEMU's vhost_vdpa_svq_setup does it: num, base, kick, call, the
     * shadow ring's driver area (read-only to the device) and device area mapped one IOTLB update
     * each outside any batch ({@code areas}, none for a ring that lives in mapped guest memory),
     * the address of the shadow ring, and enable unless {@link #enablesAfterDriverOk}.
     */
    void configureShadowVring(int vq, int base, VringAddress address, List<IotlbMessage> areas) {
        touched = true;
        rec.run(names.name(VqCallNames.SET_NUM, vq), () -> dev.setVringNum(vq, queueSize));
        rec.run(names.name(VqCallNames.SET_BASE, vq), () -> dev.setVringBase(vq, base));
        bindKick(vq);
        bindCall(vq);
        for (IotlbMessage m : areas) {
            mapLoose(m);
        }
        rec.run(names.name(VqCallNames.SET_ADDR, vq), () -> dev.setVringAddr(vq, address));
        if (!enablesAfterDriverOk()) {
            enableVring(vq);
        }
        shadowVrings = true;
    }

    /** True while the device runs with shadow vrings, from their set-up to its next reset. */
    boolean shadowVrings() {
        return shadowVrings;
    }

    /** VHOST_VDPA_SET_GROUP_ASID: the virtqueues of {@code group} translate through address space {@code asid}. */
    void setGroupAsid(int group, int asid) {
        touched = true;
        rec.run(VhostIoctl.VDPA_SET_GROUP_ASID.kernelName() + " group " + group + " asid " + asid, () -> dev.setGroupAsid(group, asid));
    }

    /**
     * One IOTLB UPDATE outside any batch (QEMU's vhost_vdpa_dma_map of a shadow ring or CVQ buffer),
     * remembered so that {@link #dropLooseMaps} can undo it; an entry still mapped at the same place
     * is invalidated first, since vhost refuses an update that overlaps one (EEXIST).
     */
    void mapLoose(IotlbMessage update) {
        touched = true;
        endBatchLeftOpen();
        IotlbMessage undo = IotlbMessage.invalidate(update.asid(), update.iova(), update.size());
        if (looseMaps.contains(undo)) {
            // forgotten only once its INVALIDATE went through: a failed write leaves it mapped, for dropLooseMaps
            rec.run(IOTLB_WRITE_NAMES.get(IotlbMessageType.INVALIDATE) + looseSuffix(undo), () -> dev.writeIotlb(undo));
            looseMaps.remove(undo);
        }
        looseMaps.add(undo);
        rec.run(IOTLB_WRITE_NAMES.get(IotlbMessageType.UPDATE) + looseSuffix(update), () -> dev.writeIotlb(update));
    }

    /** Invalidates, one message each, the loose entries of address space {@code asid} (any when negative). */
    void dropLooseMaps(int asid) {
        if (hasLooseMaps(asid)) {
            endBatchLeftOpen();
        }
        for (IotlbMessage m : List.copyOf(looseMaps)) {
            if (asid < 0 || m.asid() == asid) {
                touched = true;
                rec.run(IOTLB_WRITE_NAMES.get(IotlbMessageType.INVALIDATE) + looseSuffix(m), () -> dev.writeIotlb(m));
                looseMaps.remove(m);
            }
        }
    }

    /** True while loose entries of address space {@code asid} (any when negative) may be mapped. */
    boolean hasLooseMaps(int asid) {
        return looseMaps.stream().anyMatch(m -> asid < 0 || m.asid() == asid);
    }

    private static String looseSuffix(IotlbMessage m) {
        return " asid " + m.asid() + " iova 0x" + Long.toHexString(m.iova());
    }

    void driverOkStatus() {
        touched = true;
        int all = DeviceStatus.ACKNOWLEDGE | DeviceStatus.DRIVER | DeviceStatus.FEATURES_OK | DeviceStatus.DRIVER_OK;
        addStatusChecked("DRIVER_OK", all);
        driverOk = true;
    }

    /** Sends VQ_PAIRS_SET through {@code queue} and remembers the new count. */
    void setQueuePairs(ControlQueue queue, int pairs, Duration timeout) {
        touched = true;
        rec.run("CVQ VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET(" + pairs + ")",
                () -> queue.setQueuePairs(target.name(), cvqKick, cvqCall, pairs, timeout));
        activeQueuePairs = pairs;
    }

    /**
     * Maps {@code regions} as one IOTLB batch (one set_map in set_map drivers), invalidating first
     * whatever the vhost table may still hold so the batch never collides with an old entry.
     */
    void map(List<IotlbRegion> regions, IotlbBatchPlanner planner) {
        touched = true;
        List<IotlbMessage> msgs = new ArrayList<>();
        msgs.add(IotlbMessage.batchBegin(0));
        if (tableMayHoldEntries) {
            invalidations(regions, msgs);
        }
        for (IotlbMessage m : planner.planMap(0, regions, iovaRange).messages()) {
            if (m.messageType() == IotlbMessageType.UPDATE) {
                msgs.add(m);
            }
        }
        msgs.add(IotlbMessage.batchEnd(0));
        memory = Memory.PARTIAL;
        tableMayHoldEntries = true;
        write(IotlbPlan.of(msgs));
        memory = Memory.MAPPED;
    }

    /** Removes {@code regions} from the device (one batch: set_map with an empty table). */
    void unmap(List<IotlbRegion> regions) {
        touched = true;
        List<IotlbMessage> msgs = new ArrayList<>();
        msgs.add(IotlbMessage.batchBegin(0));
        invalidations(regions, msgs);
        msgs.add(IotlbMessage.batchEnd(0));
        if (memory != Memory.UNMAPPED) {
            memory = Memory.PARTIAL;
        }
        write(IotlbPlan.of(msgs));
        memory = Memory.UNMAPPED;
        tableMayHoldEntries = false;
    }

    private static void invalidations(List<IotlbRegion> regions, List<IotlbMessage> out) {
        for (IotlbRegion r : regions) {
            out.add(IotlbMessage.invalidate(0, r.iova(), r.size()));
        }
    }

    /** One write(2) per message, each its own span: the BATCH_END is where set_map drivers do the work. */
    private void write(IotlbPlan plan) {
        endBatchLeftOpen();
        for (IotlbMessage m : plan.messages()) {
            rec.run(IOTLB_WRITE_NAMES.get(m.messageType()), () -> dev.writeIotlb(m));
            if (m.messageType() == IotlbMessageType.BATCH_BEGIN) {
                openBatchAsid = m.asid();
            } else if (m.messageType() == IotlbMessageType.BATCH_END) {
                openBatchAsid = -1;
            }
        }
    }

    /**
     * Closes a batch that a failed write left open (see {@link #openBatchAsid}): without it, every
     * later message of another address space fails, and a reset does not help. On a set_map driver
     * the BATCH_END pushes the table as it stands; the next map invalidates and maps it again.
     */
    private void endBatchLeftOpen() {
        if (openBatchAsid < 0) {
            return;
        }
        IotlbMessage end = IotlbMessage.batchEnd(openBatchAsid);
        rec.run(IOTLB_WRITE_NAMES.get(IotlbMessageType.BATCH_END) + " [closing the batch a failed write left open]",
                () -> dev.writeIotlb(end));
        openBatchAsid = -1;
    }

    @Override
    public void close() {
        for (EventFd e : eventFds) {
            try {
                e.close();
            } catch (RuntimeException ex) {
                LOG.warn("{}: closing {} failed: {}", target.name(), e, ex.getMessage());
            }
        }
        eventFds.clear();
        dev.close();
    }
}
