package org.vdpactl.fake.mlx5;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.model.DriverModel;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.fake.model.OpCost;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.sys.Errno;

/**
 * One mlx5 vDPA net device as the latency model of docs/spec/mlx5-model.md sees it: the driver
 * ops of {@code mlx5_vnet.c} with the firmware commands each issues (§1–§3), timed by §4.
 *
 * <p>Every op returns an {@link OpCost}: {@code nanos} is the caller's critical path (sync
 * commands, batches, host work, waits), the counts say how the commands went out, and
 * {@code deferredNanos} is work handed to the v6.12 MR garbage collector. An op the driver refuses
 * throws {@link KernelError} with the driver's errno; the time spent until then is in
 * {@link #lastFailureCost()}.
 *
 * <p>Not tied to a clock: costs are pure arithmetic. Only the v6.12 GC needs time; give it one
 * with {@link #useClock(LongSupplier)}, otherwise deferred MRs wait for {@link #runGarbageCollector()}
 * or device deletion. Public methods are synchronized so a fault injector may call the hooks from
 * another thread.
 */
public final class Mlx5Device implements DriverModel {
    private static final Logger LOG = LoggerFactory.getLogger(Mlx5Device.class);

    /** virtio status bits the driver looks at. */
    public static final int STATUS_DRIVER_OK = vhost_h.VIRTIO_CONFIG_S_DRIVER_OK();
    public static final int STATUS_FAILED = vhost_h.VIRTIO_CONFIG_S_FAILED();

    /** {@code MLX5V_DEFAULT_VQ_SIZE}, also the maximum ({@code get_vq_num_max}). */
    public static final int DEFAULT_VQ_SIZE = 256;

    private final Mlx5Preset preset;
    private final Mlx5Params p;
    private final Mlx5Features f;
    private final long deviceFeatures;
    private final CommandQueue queue;
    private final FwCommands cmds;
    private final MrResources mrs;
    private Mlx5Capabilities caps;

    private VirtQueues vqs;
    private int rqtSize;
    private int status;
    private long negotiated;
    private boolean suspended;
    private boolean needsTeardown;
    private boolean notifierRegistered;
    private boolean netResources;
    private boolean deleted;
    private final int[] groupAsid = new int[3];
    /** What a map change whose VQ re-creation fails leaves in the ASID (a kernel fact, {@link #setFailedMapChange}). */
    private FailedMapChange failedMapChange = FailedMapChange.RESTORE_OLD;

    private LongSupplier clockNanos;
    private double opStartMs = Double.NaN;
    private boolean tracing;
    private List<String> lastTrace = List.of();
    private OpCost lastFailureCost = OpCost.FREE;

    /**
     * A device as it stands right after dev_add (without charging dev_add; call {@link #devAdd} for its cost).
     *
     * @param preset         the kernel behaviour
     * @param maxVqPairs     provisioned max_vq_pairs (V = 2 × pairs); 0 = not provisioned, i.e. 1 pair (§5 #3)
     * @param caps           FW capabilities
     * @param deviceFeatures provisioned device features ({@link Mlx5NetFeatures#DEFAULT_DEVICE} when none were given)
     */
    public Mlx5Device(Mlx5Preset preset, int maxVqPairs, Mlx5Capabilities caps, long deviceFeatures) {
        Mlx5Presets.checkMaxVqPairs(maxVqPairs);
        this.preset = preset;
        this.p = preset.params();
        this.f = preset.features();
        this.caps = caps;
        this.deviceFeatures = deviceFeatures;
        this.queue = new CommandQueue(p);
        this.cmds = FwCommands.of(p);
        this.mrs = new MrResources(p, f, queue, cmds, this::nowMs);
        freshDevice(2 * Math.max(1, maxVqPairs));
        if (f.precreateVqs()) {
            for (int i = 0; i < vqs.count(); i++) {
                VirtQueue vq = vqs.get(i);
                vq.state = VqState.INIT;
                vq.objectSize = vq.size;
                vq.pending.addAll(vqs.mkeyFields());
            }
            netResources = true;
        }
        if (caps.umemUid0()) {
            mrs.assumeDma();
        }
    }

    private void freshDevice(int dataVqs) {
        VirtQueues.MrRefs refs = new VirtQueues.MrRefs() {
            @Override
            public MemoryRegion dataMr() {
                return mrs.get(groupAsid[0]);
            }

            @Override
            public void drop(OpMeter m, MemoryRegion mr) {
                mrs.drop(m, mr);
            }
        };
        vqs = new VirtQueues(p, f, cmds, refs, caps, dataVqs, f.precreateVqs() ? DEFAULT_VQ_SIZE : 0);
        rqtSize = f.precreateVqs() ? dataVqs / 2 : 1;
        status = 0;
        negotiated = 0;
        suspended = false;
        needsTeardown = false;
        notifierRegistered = false;
        netResources = false;
        mrs.forget();
        Arrays.fill(groupAsid, 0);
    }

    // ------------------------------------------------------------------ ops

    @Override
    public synchronized OpCost devAdd(int dataVqs) {
        return run("dev_add", m -> {
            if (dataVqs < 2) {
                throw KernelError.of(Errno.EAGAIN, "max_vqs " + dataVqs + " < 2");
            }
            freshDevice(dataVqs);
            check(m.syncAll(cmds.devResources(caps.umemUid0())), "dev_add resources");
            if (caps.umemUid0()) {
                mrs.createDma(m);
            }
            if (f.precreateVqs()) {
                check(setupVqResources(m, false), "pre-create VQs");
            }
        });
    }

    @Override
    public synchronized OpCost devDel() {
        OpCost cost = run("dev_del", m -> {
            unregisterNotifier(m);
            m.syncAll(cmds.devResourcesFree(caps.umemUid0()));
            mrs.clean(m);
            mrs.drainGc(m);
            teardownVqResources(m);
        });
        deleted = true;
        return cost;
    }

    @Override
    public synchronized OpCost setDriverFeatures(long features) {
        return run("set_driver_features", m -> {
            if ((features & Mlx5NetFeatures.ACCESS_PLATFORM) == 0) {
                throw KernelError.of(Errno.EOPNOTSUPP, "driver features without ACCESS_PLATFORM");
            }
            if ((features & Mlx5NetFeatures.MQ) != 0 && (features & Mlx5NetFeatures.CTRL_VQ) == 0) {
                throw KernelError.of(Errno.EINVAL, "MQ without CTRL_VQ");
            }
            long actual = features & deviceFeatures;
            if (f.precreateVqs()) {
                if ((actual & Mlx5NetFeatures.VQ_SUBSET) != (negotiated & Mlx5NetFeatures.VQ_SUBSET)) {
                    vqs.markAll(EnumSet.of(VirtQueue.Field.VIRTIO_VERSION, VirtQueue.Field.QUEUE_FEATURES));
                }
                if (((actual ^ deviceFeatures) & Mlx5NetFeatures.RECREATE_ON_DIFFERENCE) != 0) {
                    needsTeardown = true;
                }
            } else {
                rqtSize = (actual & Mlx5NetFeatures.MQ) != 0 ? vqs.count() / 2 : 1;
                // 6.1: cur_num_vqs = 2 * rqt_size, every provisioned pair with MQ (mlx5_vnet.c 6.1.192 l. 2290-2295)
                vqs.setActive(f.onePairAtFeatures() ? 2 : 2 * rqtSize);
            }
            negotiated = actual;
        });
    }

    @Override
    public synchronized OpCost setStatus(int oldStatus, int newStatus) {
        return run("set_status", m -> {
            boolean wasOk = (status & STATUS_DRIVER_OK) != 0;
            boolean okNow = (newStatus & STATUS_DRIVER_OK) != 0;
            if (wasOk && !okNow) {
                LOG.warn("mlx5 {}: clearing DRIVER_OK without reset is refused; status stays {}", preset.name(), status);
                return;
            }
            if (okNow && !wasOk) {
                driverOk(m, oldStatus, newStatus);
            } else {
                status = newStatus;
            }
        });
    }

    /**
     * mlx5_vdpa_set_status when setup_cvq_vring fails: err_setup cleans the MRs and adds FAILED to the old
     * status; no link notifier, no VQ work (6.1.192 mlx5_vnet.c l. 2540-2545, 2561-2563; 6.12.118 l. 3198-3203,
     * 3234-3236).
     */
    @Override
    public synchronized OpCost driverOkSetupFailed(int oldStatus) {
        return run("set_status", m -> {
            mrs.clean(m);
            status = oldStatus | STATUS_FAILED;
        });
    }

    private void driverOk(OpMeter m, int oldStatus, int newStatus) {
        registerNotifier(m);
        int err;
        if (!f.precreateVqs()) {
            err = setupVqResources(m, true);
        } else if (needsTeardown) {
            teardownVqResources(m);
            err = setupVqResources(m, true);
            needsTeardown = false;
        } else {
            err = vqs.resumeRange(m, 0, vqs.active());
        }
        if (err == 0) {
            status = newStatus;
            return;
        }
        LOG.debug("mlx5 {}: DRIVER_OK failed with errno {}", preset.name(), err);
        if (!f.precreateVqs()) {
            teardownVqResources(m);
        }
        mrs.clean(m);
        unregisterNotifier(m);
        // mlx5_vdpa_set_status err_setup: FAILED is added to the old status, DRIVER_OK is never set
        status = oldStatus | STATUS_FAILED;
    }

    @Override
    public synchronized OpCost reset(boolean cleanMap) {
        return run("reset", m -> {
            unregisterNotifier(m);
            boolean recreate = false;
            if (!f.precreateVqs()) {
                teardownVqResources(m);
            } else if (needsVqsReset()) {
                teardownVqResources(m);
                recreate = true;
            }
            if (cleanMap) {
                mrs.clean(m);
                if (caps.umemUid0()) {
                    mrs.createDma(m);
                }
            }
            status = 0;
            suspended = false;
            negotiated = 0;
            needsTeardown = false;
            vqs.setActive(2);
            Arrays.fill(groupAsid, 0);
            for (int i = 0; i < vqs.count(); i++) {
                VirtQueue vq = vqs.get(i);
                vq.ready = false;
                vq.size = f.precreateVqs() ? DEFAULT_VQ_SIZE : 0;
                if (recreate) {
                    vq.usedIdx = 0; // 6.11+ mvqs_set_defaults zeroes the VQ; 6.1's reset keeps mvq->used_idx
                }
                if (!vq.exists()) {
                    vq.pending.clear();
                }
            }
            if (recreate) {
                check(setupVqResources(m, false), "re-create VQs");
            }
        });
    }

    /** 6.11+ {@code needs_vqs_reset()}: DRIVER_OK was set, VQ[0] left INIT, or VQ[0] has ring-state changes. */
    private boolean needsVqsReset() {
        VirtQueue first = vqs.get(0);
        return (status & STATUS_DRIVER_OK) != 0 || first.state != VqState.INIT
                || first.pending.stream().anyMatch(VirtQueue.RING_STATE::contains);
    }

    @Override
    public synchronized OpCost suspend() {
        return run("suspend", m -> {
            if (!f.keepNotifierOnSuspend()) {
                unregisterNotifier(m);
            }
            int err = vqs.suspendRange(m, 0, vqs.active());
            suspended = true;
            if (err != 0 && f.vqErrorsReturned()) {
                throw KernelError.of(err, "suspend: VQ command failed");
            }
        });
    }

    @Override
    public synchronized OpCost resume() {
        return run("resume", m -> {
            if (!vqs.resumable()) {
                throw KernelError.of(Errno.EOPNOTSUPP, "no .resume op: FW lacks freeze_to_rdy_supported");
            }
            suspended = false;
            int n = f.activeVqsOnly() ? vqs.active() : vqs.count();
            int err = vqs.resumeRange(m, 0, n);
            registerNotifier(m);
            if (err != 0) {
                throw KernelError.of(err, "resume vq called from bad state or VQ command failed");
            }
        });
    }

    @Override
    public synchronized OpCost setVqNum(int index, int num) {
        return run("set_vq_num", m -> {
            if (!isDataVq(index)) {
                return;
            }
            VirtQueue vq = vqs.get(index);
            if (f.precreateVqs() && num != vq.size) {
                needsTeardown = true;
            }
            vq.size = num;
        });
    }

    @Override
    public synchronized OpCost setVqAddress(int index) {
        return run("set_vq_address", m -> {
            requireValidIndex(index);
            if (isDataVq(index)) {
                vqs.get(index).pending.add(VirtQueue.Field.ADDRS);
            }
        });
    }

    @Override
    public synchronized OpCost setVqState(int index, long base) {
        return run("set_vq_state", m -> {
            requireValidIndex(index);
            if (!isDataVq(index)) {
                return;
            }
            VirtQueue vq = vqs.get(index);
            if (vq.state == VqState.RDY) {
                throw KernelError.of(Errno.EINVAL, "can't modify available index of RDY vq " + index);
            }
            vq.usedIdx = (int) (base & 0xFFFF);
            vq.pending.add(VirtQueue.Field.AVAIL_IDX);
            vq.pending.add(VirtQueue.Field.USED_IDX);
        });
    }

    /**
     * What mlx5_vdpa_get_vq_state answers for a data VQ (6.1.192 mlx5_vnet.c l. 2097-2130; 6.12.118 l. 2597-2634):
     * the FW object's hw_used_index when the VQ has one (a query), else {@code mvq->used_idx}, which
     * SET_VRING_BASE set or suspend_vq saved. So 6.12+ (objects from dev_add) answer 0 before DRIVER_OK
     * and the suspended index after SUSPEND plus SET_VRING_BASE; 6.1 echoes the SET value until
     * DRIVER_OK creates the objects, and after a reset the previous opener's index (reset does not clear
     * mvq->used_idx there; 6.12's mvqs_set_defaults does). Other indices: {@code deviceState}.
     */
    @Override
    public synchronized long reportedVqState(int index, long deviceState) {
        if (!isDataVq(index)) {
            return deviceState;
        }
        VirtQueue vq = vqs.get(index);
        return vq.exists() ? vq.fwUsedIdx : vq.usedIdx;
    }

    @Override
    public synchronized OpCost getVqState(int index) {
        return run("get_vq_state", m -> {
            requireValidIndex(index);
            if (!isDataVq(index) || !vqs.get(index).exists()) {
                return;
            }
            check(vqs.queryOne(m, vqs.get(index)), "query vq " + index);
        });
    }

    @Override
    public synchronized OpCost setVqReady(int index, boolean ready) {
        return run("set_vq_ready", m -> {
            if (negotiated == 0 || !isDataVq(index)) {
                return;
            }
            VirtQueue vq = vqs.get(index);
            int err = 0;
            if (!ready) {
                err = f.asyncVqCommands() ? vqs.suspendRange(m, index, 1) : vqs.suspendOne(m, vq);
            } else if (!f.precreateVqs()) {
                err = vq.state == VqState.RDY ? 0 : vqs.modifyOne(m, vq, VqState.RDY);
            } else if ((status & STATUS_DRIVER_OK) != 0) {
                err = vqs.resumeSingle(m, vq);
            }
            vq.ready = ready && err == 0;
        });
    }

    @Override
    public synchronized OpCost setGroupAsid(int group, int asid) {
        return run("set_group_asid", m -> {
            if (group < 0 || group >= caps.groups()) {
                throw KernelError.of(Errno.EINVAL, "group " + group + " out of range");
            }
            if (asid < 0 || asid >= MrResources.NUM_ASIDS) {
                throw KernelError.of(Errno.EINVAL, "asid " + asid + " out of range");
            }
            groupAsid[group] = asid;
        });
    }

    /**
     * mlx5_vdpa_reset_map → mlx5_vdpa_reset_mr (core/mr.c 6.12.118 l. 876-891; 7.2.13 l. 875-890): the ASID's MR
     * dropped, and ASID 0 given a new DMA MR when the FW has umem_uid_0 (a failure there is only a warning). At
     * close vhost-vdpa calls it for every address space after the CLEAN_MAP reset, which built one DMA MR already:
     * that one is dropped again and another built (vhost/vdpa.c 6.12.118 vhost_vdpa_remove_as l. 154-174).
     */
    @Override
    public synchronized OpCost resetMap(int asid) {
        return run("reset_map", m -> {
            if (asid < 0 || asid >= MrResources.NUM_ASIDS) {
                throw KernelError.of(Errno.EINVAL, "asid " + asid + " ≥ " + MrResources.NUM_ASIDS);
            }
            mrs.replace(m, asid, null);
            if (asid == 0 && caps.umemUid0()) {
                mrs.createDma(m);
            }
        });
    }

    /** Which of the kernels' ways a map change whose VQ re-creation fails ends in (mlx5_vdpa_change_map). */
    public synchronized void setFailedMapChange(FailedMapChange what) {
        failedMapChange = Objects.requireNonNull(what);
    }

    @Override
    public synchronized OpCost setMap(int asid, List<MapEntry> table) {
        return run("set_map", m -> {
            if (asid < 0 || asid >= MrResources.NUM_ASIDS) {
                throw KernelError.of(Errno.EINVAL, "asid " + asid + " ≥ " + MrResources.NUM_ASIDS);
            }
            if (!f.mapPerAsid()) {
                setMapOneDataMr(m, asid, table);
                return;
            }
            MemoryRegion fresh = table.isEmpty() ? null : mrs.build(m, table);
            if (mrs.get(asid) == null) {
                mrs.replace(m, asid, fresh);
            } else {
                changeMap(m, fresh, asid, true);
            }
        });
    }

    /**
     * 6.1's set_map: mlx5_vdpa_handle_set_map (core/mr.c 6.1.192 l. 613-630) builds the data MR only while none
     * exists, and only for the data group's ASID (_mlx5_vdpa_create_dvq_mr, l. 552-579; the CVQ's ASID gets a
     * software copy of the IOTLB, no MKEY); once it exists every set_map, whatever the ASID, goes through
     * mlx5_vdpa_change_map (mlx5_vnet.c 6.1.192 l. 2400-2431): every VQ suspended, saved, destroyed, and after
     * DRIVER_OK re-created (setup_driver).
     */
    private void setMapOneDataMr(OpMeter m, int asid, List<MapEntry> table) {
        boolean dataAsid = asid == groupAsid[0];
        boolean dataMrExists = mrs.get(groupAsid[0]) != null;
        MemoryRegion fresh = dataAsid && !table.isEmpty() ? mrs.build(m, table) : null;
        if (!dataMrExists) {
            if (dataAsid) {
                mrs.replace(m, asid, fresh);
            }
            return;
        }
        changeMap(m, fresh, asid, dataAsid);
    }

    /**
     * {@code mlx5_vdpa_change_map()} (§1.9 step 3); {@code swapMr}: the ASID's MR is replaced by {@code fresh}. When
     * re-creating the VQs fails, the ASID keeps what {@link #failedMapChange} says (6.12.118 mlx5_vnet.c l. 3062-3080
     * holds a reference to the old MR and puts it back; 7.2.13 l. 3053-3089 keeps the new one; 6.1.192 l. 2400-2431
     * destroys the new one). The reference on the old MR is modelled on the teardown path only, the one where it is
     * ever used: on the resumable path the old MR is dropped at the swap, not after the resume (deferred GC timing).
     */
    private void changeMap(OpMeter m, MemoryRegion fresh, int asid, boolean swapMr) {
        boolean teardown = !vqs.resumable();
        vqs.suspendRange(m, 0, f.activeVqsOnly() ? vqs.active() : vqs.count());
        if (teardown) {
            for (int i = 0; i < vqs.count(); i++) {
                if (vqs.get(i).exists()) {
                    vqs.queryOne(m, vqs.get(i));
                }
            }
            teardownVqResources(m);
        }
        // mlx5_vdpa_get_mr(old_mr): "Keep the old MR alive in case rebuilding the VQs fails" (6.12.118 l. 3062-3064)
        MemoryRegion kept = swapMr && teardown && failedMapChange == FailedMapChange.RESTORE_OLD ? mrs.hold(asid) : null;
        if (swapMr) {
            mrs.replace(m, asid, fresh);
        }
        vqs.markAll(vqs.mkeyFields());
        if ((status & STATUS_DRIVER_OK) == 0 || suspended) {
            mrs.put(m, kept);
            return;
        }
        if (teardown) {
            int err = setupVqResources(m, true);
            if (err != 0) {
                if (swapMr && failedMapChange == FailedMapChange.RESTORE_OLD) {
                    mrs.replace(m, asid, kept); // "The saved reference becomes the restored map reference."
                } else if (swapMr && failedMapChange == FailedMapChange.DROP_NEW) {
                    mrs.replace(m, asid, null); // 6.1 err_setup: mlx5_vdpa_destroy_mr_asid
                }
                check(err, "re-create VQs after map change");
            }
            mrs.put(m, kept);
        }
        // resume_vqs' answer is ignored: the map change succeeds, a VQ that did not resume stays as it is
        // (6.12.118 mlx5_vnet.c l. 3084; 7.2.13 l. 3086; ≤ v6.10 resume_vqs returns nothing)
        int err = vqs.resumeRange(m, 0, f.activeVqsOnly() ? vqs.active() : vqs.count());
        if (err != 0) {
            LOG.debug("mlx5 {}: resume after map change failed with errno {}; set_map succeeds", preset.name(), err);
        }
    }

    @Override
    public synchronized OpCost changeNumQueuePairs(int pairs) {
        return run("change_num_qps", m -> {
            if ((negotiated & Mlx5NetFeatures.MQ) == 0) {
                throw KernelError.of(Errno.EINVAL, "VIRTIO_NET_ERR: MQ not negotiated");
            }
            if (pairs < 1 || pairs > rqtSize) {
                throw KernelError.of(Errno.EINVAL, "VIRTIO_NET_ERR: " + pairs + " pairs outside 1.." + rqtSize);
            }
            if ((status & STATUS_DRIVER_OK) == 0) {
                throw KernelError.of(Errno.EAGAIN, "the CVQ is not processed before DRIVER_OK");
            }
            int cur = vqs.active();
            int wanted = 2 * pairs;
            if (wanted < cur) {
                check(m.sync(cmds.rqtModify()), "modify RQT");
                shrink(m, wanted, cur);
            } else if (wanted > cur) {
                vqs.setActive(wanted);
                int err = grow(m, cur, wanted);
                if (err == 0) {
                    err = m.sync(cmds.rqtModify());
                }
                if (err != 0) {
                    vqs.setActive(cur);
                    throw KernelError.of(err, "VIRTIO_NET_ERR: growing to " + pairs + " pairs failed");
                }
            }
        });
    }

    private void shrink(OpMeter m, int wanted, int cur) {
        boolean keepObjects = f.precreateVqs() && vqs.resumable();
        if (keepObjects && f.asyncVqCommands()) {
            vqs.suspendRange(m, wanted, cur - wanted);
        } else {
            for (int i = wanted; i < cur; i++) {
                if (keepObjects) {
                    vqs.suspendOne(m, vqs.get(i));
                } else {
                    vqs.destroy(m, vqs.get(i));
                }
            }
        }
        vqs.setActive(wanted);
    }

    private int grow(OpMeter m, int cur, int wanted) {
        for (int i = cur; i < wanted; i++) {
            VirtQueue vq = vqs.get(i);
            if (!vq.exists()) {
                int err = vqs.create(m, vq, true);
                if (err == 0 && !f.precreateVqs() && vq.ready) {
                    err = vqs.modifyOne(m, vq, VqState.RDY);
                }
                if (err != 0) {
                    return err;
                }
            }
        }
        return f.precreateVqs() ? vqs.resumeRange(m, cur, wanted - cur) : 0;
    }

    // ------------------------------------------------------------------ building blocks

    /**
     * B3 + B1 for all V: blank (6.11+ dev_add/reset) or filled (≤ v6.10 DRIVER_OK, 6.11+ re-create).
     * Filled VQs that are ready go to RDY: ≤ v6.10 all of them, 6.11+ only the active ones.
     */
    private int setupVqResources(OpMeter m, boolean filled) {
        int err = m.syncAll(cmds.netCreate());
        if (err != 0) {
            return err;
        }
        netResources = true;
        for (int i = 0; i < vqs.count(); i++) {
            VirtQueue vq = vqs.get(i);
            if (vq.exists() || (filled && vq.size == 0)) {
                continue;
            }
            err = vqs.create(m, vq, filled);
            if (err == 0 && filled && vq.ready) {
                err = f.precreateVqs() ? vqs.resumeSingle(m, vq) : vqs.modifyOne(m, vq, VqState.RDY);
            }
            if (err != 0) {
                return err;
            }
        }
        return 0;
    }

    /** B2 for every VQ object + B3 teardown. */
    private void teardownVqResources(OpMeter m) {
        vqs.destroyAll(m);
        if (netResources) {
            for (FwCommand c : cmds.netDestroy()) {
                m.sync(c);
            }
            netResources = false;
        }
    }

    private void registerNotifier(OpMeter m) {
        if ((negotiated & Mlx5NetFeatures.STATUS) != 0 && !notifierRegistered) {
            m.host(p.notifierRegisterMs());
            notifierRegistered = true;
        }
    }

    private void unregisterNotifier(OpMeter m) {
        if (notifierRegistered) {
            m.host(p.notifierUnregisterMs());
            notifierRegistered = false;
        }
    }

    // ------------------------------------------------------------------ indices

    /** {@code ctrl_vq_idx()}: 2 without MQ, V with MQ; only when CTRL_VQ was negotiated. */
    private boolean isCvq(int index) {
        if ((negotiated & Mlx5NetFeatures.CTRL_VQ) == 0) {
            return false;
        }
        return index == ((negotiated & Mlx5NetFeatures.MQ) == 0 ? 2 : vqs.count());
    }

    /** {@code is_index_valid()}. */
    private boolean isValidIndex(int index) {
        if (index < 0) {
            return false;
        }
        if ((negotiated & Mlx5NetFeatures.MQ) == 0) {
            return index < ((negotiated & Mlx5NetFeatures.CTRL_VQ) == 0 ? 2 : 3);
        }
        return index <= vqs.count();
    }

    private boolean isDataVq(int index) {
        return isValidIndex(index) && !isCvq(index) && index < vqs.count();
    }

    private void requireValidIndex(int index) {
        if (!isValidIndex(index)) {
            throw KernelError.of(Errno.EINVAL, "invalid vq index " + index);
        }
    }

    // ------------------------------------------------------------------ op plumbing

    private OpCost run(String op, Consumer<OpMeter> body) {
        if (deleted) {
            throw new IllegalStateException("mlx5 device already deleted (" + op + ")");
        }
        OpMeter m = new OpMeter(queue, tracing);
        opStartMs = clockNanos == null ? Double.NaN : clockNanos.getAsLong() / 1e6;
        mrs.catchUp(opStartMs);
        try {
            body.accept(m);
        } catch (KernelError e) {
            lastFailureCost = m.cost();
            lastTrace = m.trace();
            LOG.debug("mlx5 {} {}: {} after {} ms", preset.name(), op, e.getMessage(), m.elapsedMs());
            throw e;
        }
        lastFailureCost = OpCost.FREE;
        lastTrace = m.trace();
        return m.cost();
    }

    private double nowMs(OpMeter m) {
        return opStartMs + m.elapsedMs();
    }

    private static void check(int errno, String what) {
        if (errno != 0) {
            throw KernelError.of(errno, what + " failed: " + Errno.name(errno));
        }
    }

    // ------------------------------------------------------------------ hooks and inspection

    /** The preset this device follows. */
    public Mlx5Preset preset() {
        return preset;
    }

    /**
     * Gives the v6.12 GC a clock (nanoseconds, e.g. {@code clock::nanoTime}); it is read at the
     * start of each op, which must be the op's start on the caller's timeline.
     */
    public synchronized void useClock(LongSupplier nanoTime) {
        this.clockNanos = nanoTime;
    }

    /** Records the commands of each op for {@link #lastTrace()}. */
    public synchronized void setTracing(boolean on) {
        tracing = on;
    }

    /** Commands of the last op ("sync OPCODE object" / "batch n × OPCODE"), when tracing. */
    public synchronized List<String> lastTrace() {
        return lastTrace;
    }

    /** What the last op cost before it threw (FREE if it did not throw). */
    public synchronized OpCost lastFailureCost() {
        return lastFailureCost;
    }

    /** The status as the driver holds it: DRIVER_OK failures add FAILED; clearing DRIVER_OK is refused. */
    public synchronized int status() {
        return status;
    }

    /** vhost-vdpa reads the status back from the driver: a failed DRIVER_OK shows FAILED there too. */
    @Override
    public synchronized int statusAfterSetStatus(int requested) {
        return status;
    }

    public synchronized int dataVqs() {
        return vqs.count();
    }

    /** A: active data VQs. */
    public synchronized int activeVqs() {
        return vqs.active();
    }

    public synchronized VqState vqState(int index) {
        return vqs.get(index).state;
    }

    /** mlx5v_probe: get_vq_desc_group only with FW desc_group_mkey_supported. */
    @Override
    public synchronized boolean hasDescGroupOp() {
        return caps.descGroupMkey();
    }

    /** counter_set_query's condition: a data VQ whose FW object is RDY. */
    @Override
    public synchronized boolean vqRunning(int index) {
        return index >= 0 && index < vqs.count() && vqs.get(index).state == VqState.RDY;
    }

    public synchronized boolean notifierRegistered() {
        return notifierRegistered;
    }

    public synchronized boolean needsTeardown() {
        return needsTeardown;
    }

    public synchronized boolean suspended() {
        return suspended;
    }

    public synchronized Mlx5Capabilities capabilities() {
        return caps;
    }

    /** False when FW lacks {@code freeze_to_rdy_supported}: the {@code .resume} op does not exist. */
    public synchronized boolean hasResumeOp() {
        return vqs.resumable();
    }

    /** The geometry of the user MR in {@code asid}; empty for none or the DMA MR. */
    public synchronized Optional<MrGeometry> mapGeometry(int asid) {
        return mrs.geometry(asid);
    }

    /** True when {@code asid} holds the PA-mode DMA MR. */
    public synchronized boolean hasDmaMr(int asid) {
        return mrs.isDma(asid);
    }

    /** MRs waiting for the GC. */
    public synchronized int pendingGcMrs() {
        return mrs.pendingGc();
    }

    /** When the GC timer fires (ms on the clock of {@link #useClock}), or NaN when not armed. */
    public synchronized double gcFireAtMs() {
        return mrs.gcFireAtMs();
    }

    /** Runs the GC now (the delayed work firing); nanos = the GC thread's work, nothing on any caller. */
    public synchronized OpCost runGarbageCollector() {
        OpMeter total = new OpMeter(queue, false);
        mrs.drainGc(total);
        return total.cost();
    }

    /** Fault hook: the FW moves VQ {@code index} to ERR on its own (§3.1). */
    public synchronized void forceVqError(int index) {
        VirtQueue vq = vqs.get(index);
        if (!vq.exists()) {
            throw new IllegalStateException("vq " + index + " has no FW object");
        }
        vq.state = VqState.ERR;
    }

    /** Fault hook: arms a FW command fault (§6.4). */
    public synchronized void injectFault(FwFault fault) {
        queue.arm(fault);
    }

    /** Faults armed and not fired yet. */
    public synchronized List<FwFault> armedFaults() {
        return queue.armedFaults();
    }

    /** Fault hook: the next MR build fails to allocate its command buffers (−ENOMEM, §5 #16). */
    public synchronized void injectMrAllocationFailure() {
        mrs.failNextAllocation();
    }

    /** Fault hook: capabilities change (e.g. {@link Mlx5Capabilities#withoutResume()}, §5 #8). */
    public synchronized void setCapabilities(Mlx5Capabilities c) {
        caps = c;
        vqs.setCapabilities(c);
    }

    /** FW asks mlx5_core to give back {@code pages} pages: background work on the page workqueue (§4.5.7). */
    public synchronized PageReclaim fwRequestsPageReclaim(long pages) {
        return PageReclaim.of(p, f, pages);
    }

    @Override
    public String toString() {
        return "mlx5 device (" + preset.name() + ", " + vqs.count() + " data VQs)";
    }
}
