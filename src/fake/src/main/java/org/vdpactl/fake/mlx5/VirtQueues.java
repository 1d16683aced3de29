package org.vdpactl.fake.mlx5;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.vdpactl.sys.Errno;

/**
 * The data VQs of one device and the building blocks that act on them (docs/spec/mlx5-model.md
 * §1.1 B1, B2, B4–B6): which commands go out, sync or batched, and which checks refuse them.
 * Methods return an errno (0 = success) as the driver's helpers do; the device decides what
 * reaches userspace.
 */
final class VirtQueues {
    /** How the VQs reach the device's MR state. */
    interface MrRefs {
        /** The MR whose key a VQ object would use now (the data group's ASID), or null. */
        MemoryRegion dataMr();

        /** Drops one reference to {@code mr}, releasing it when it was the last. */
        void drop(OpMeter m, MemoryRegion mr);
    }

    private final Mlx5Params p;
    private final Mlx5Features f;
    private final FwCommands cmds;
    private final MrRefs mrs;
    private final VirtQueue[] vqs;
    private Mlx5Capabilities caps;
    private int active;

    VirtQueues(Mlx5Params p, Mlx5Features f, FwCommands cmds, MrRefs mrs, Mlx5Capabilities caps, int count,
            int defaultSize) {
        this.p = p;
        this.f = f;
        this.cmds = cmds;
        this.mrs = mrs;
        this.caps = caps;
        this.vqs = new VirtQueue[count];
        for (int i = 0; i < count; i++) {
            vqs[i] = new VirtQueue(i, defaultSize);
        }
        this.active = Math.min(2, count);
    }

    int count() {
        return vqs.length;
    }

    VirtQueue get(int i) {
        return vqs[i];
    }

    int active() {
        return active;
    }

    void setActive(int a) {
        active = a;
    }

    void setCapabilities(Mlx5Capabilities c) {
        caps = c;
    }

    /** SUSPEND → RDY: the FW's freeze_to_rdy_supported, on a kernel that asks for it (not 6.1). */
    boolean resumable() {
        return caps.resumable() && f.mapPerAsid();
    }

    boolean anyExists() {
        for (VirtQueue vq : vqs) {
            if (vq.exists()) {
                return true;
            }
        }
        return false;
    }

    /** Marks {@code fields} for the next modify on every VQ. */
    void markAll(EnumSet<VirtQueue.Field> fields) {
        for (VirtQueue vq : vqs) {
            vq.pending.addAll(fields);
        }
    }

    /** The fields a blank create leaves for the first modify: the MKEYs. */
    EnumSet<VirtQueue.Field> mkeyFields() {
        return caps.descGroupMkey() ? EnumSet.of(VirtQueue.Field.VQ_MKEY, VirtQueue.Field.DESC_MKEY)
                : EnumSet.of(VirtQueue.Field.VQ_MKEY);
    }

    // ---- B1 / B2 ----

    /** B1: create one VQ's objects, blank (6.11+ dev_add/reset) or filled (the VQ's current configuration). */
    int create(OpMeter m, VirtQueue vq, boolean filled) {
        m.host(p.hostVqSetupMs());
        int err = m.syncAll(cmds.vqCreate(vq.index, caps.vqCounters()));
        if (err != 0) {
            return err;
        }
        vq.state = VqState.INIT;
        vq.objectSize = vq.size;
        vq.pending.clear();
        // create_virtqueue: a filled object takes hw_used_index from mvq->used_idx, a blank one starts at 0
        vq.fwUsedIdx = filled ? vq.usedIdx : 0;
        if (filled) {
            takeMrRef(vq);
        } else {
            vq.pending.addAll(mkeyFields());
        }
        return 0;
    }

    /** B2: suspend if RDY, then destroy the objects; errors are ignored as in teardown. */
    void destroy(OpMeter m, VirtQueue vq) {
        if (!vq.exists()) {
            return;
        }
        suspendOne(m, vq);
        m.host(p.hostVqTeardownMs());
        for (FwCommand c : cmds.vqDestroy(vq.index, caps.vqCounters())) {
            m.sync(c);
        }
        vq.state = VqState.NONE;
        vq.pending.clear();
        dropMrRef(m, vq);
    }

    void destroyAll(OpMeter m) {
        for (VirtQueue vq : vqs) {
            destroy(m, vq);
        }
    }

    // ---- B4 ----

    /** Why a MODIFY of {@code vq} to {@code target} is refused before sending, or null (§3.1, §3.2). */
    private String refusal(VirtQueue vq, VqState target) {
        if (!vq.exists()) {
            return "vq " + vq.index + " has no object";
        }
        if (!vq.pending.isEmpty() && vq.state != VqState.INIT && vq.state != VqState.SUSPEND) {
            return "modify of fields of vq " + vq.index + " in state " + vq.state;
        }
        if (vq.state != target && !vq.state.canChangeTo(target, resumable())) {
            return vq.state == VqState.SUSPEND && target == VqState.RDY ? "vq " + vq.index + " is not resumable"
                    : "invalid state change of vq " + vq.index + " " + vq.state + " → " + target;
        }
        return null;
    }

    private FwCommand modifyCommand(VirtQueue vq, VqState target) {
        return cmds.vqModify(vq.index, vq.state, target, !vq.pending.isEmpty());
    }

    private void applied(OpMeter m, VirtQueue vq, VqState target) {
        if (vq.pending.contains(VirtQueue.Field.VQ_MKEY)) {
            dropMrRef(m, vq);
            takeMrRef(vq);
        }
        if (vq.pending.contains(VirtQueue.Field.USED_IDX)) {
            vq.fwUsedIdx = vq.usedIdx; // modify_virtqueue sets hw_used_index from mvq->used_idx
        }
        if (target == VqState.SUSPEND) {
            vq.usedIdx = vq.fwUsedIdx; // suspend_vq(s): the query after the modify saves the FW's index
        }
        vq.pending.clear();
        vq.state = target;
    }

    /** One sync MODIFY (≤ v6.11). A VQ without object is silently skipped, as ≤ v6.10 does. */
    int modifyOne(OpMeter m, VirtQueue vq, VqState target) {
        if (!vq.exists()) {
            return 0;
        }
        if (refusal(vq, target) != null) {
            return Errno.EINVAL;
        }
        int err = m.sync(modifyCommand(vq, target));
        if (err == 0) {
            applied(m, vq, target);
        }
        return err;
    }

    /** v6.12 {@code modify_virtqueues()}: every VQ is checked first; one refusal aborts the batch unsent. */
    int modifyBatch(OpMeter m, int start, int n, VqState target) {
        List<FwCommand> batch = new ArrayList<>(n);
        for (int i = start; i < start + n; i++) {
            if (refusal(vqs[i], target) != null) {
                return Errno.EINVAL;
            }
            batch.add(modifyCommand(vqs[i], target));
        }
        AsyncBatch.Result r = m.batch(batch);
        for (int i = 0; i < n; i++) {
            if (r.errno()[i] == 0) {
                applied(m, vqs[start + i], target);
            }
        }
        return r.firstError();
    }

    int queryOne(OpMeter m, VirtQueue vq) {
        return f.asyncVqCommands() ? m.batchOfOne(cmds.vqQuery(vq.index)) : m.sync(cmds.vqQuery(vq.index));
    }

    int queryBatch(OpMeter m, int start, int n) {
        List<FwCommand> batch = new ArrayList<>(n);
        for (int i = start; i < start + n; i++) {
            batch.add(cmds.vqQuery(i));
        }
        return m.batch(batch).firstError();
    }

    // ---- B5 / B6 ----

    /** Suspends one RDY VQ (MODIFY → SUSPEND, QUERY), a batch of one on v6.12. */
    int suspendOne(OpMeter m, VirtQueue vq) {
        if (vq.state != VqState.RDY) {
            return 0;
        }
        int err = f.asyncVqCommands() ? modifyBatch(m, vq.index, 1, VqState.SUSPEND)
                : modifyOne(m, vq, VqState.SUSPEND);
        return err != 0 ? err : queryOne(m, vq);
    }

    /**
     * B5 over [start, start+n). v6.12: −EINVAL if start ≥ A; the first VQ gates the range; two
     * batches. Before: VQ by VQ, each gated by itself; ≤ v6.10 ignores errors.
     */
    int suspendRange(OpMeter m, int start, int n) {
        if (f.asyncVqCommands()) {
            if (start >= active) {
                return Errno.EINVAL;
            }
            if (vqs[start].state != VqState.RDY) {
                return 0;
            }
            int err = modifyBatch(m, start, n, VqState.SUSPEND);
            return err != 0 ? err : queryBatch(m, start, n);
        }
        for (int i = start; i < start + n; i++) {
            int err = suspendOne(m, vqs[i]);
            if (err != 0 && f.vqErrorsReturned()) {
                return err;
            }
        }
        return 0;
    }

    /**
     * B6 over [start, start+n). v6.12: the state of the first VQ decides for the range (INIT: fields
     * batch then RDY batch; SUSPEND: one RDY batch if resumable; RDY: nothing; else −EINVAL). v6.11:
     * the same per VQ, sync, first error returned. ≤ v6.10: only SUSPEND → RDY, everything else skipped.
     */
    int resumeRange(OpMeter m, int start, int n) {
        if (f.asyncVqCommands()) {
            if (start >= vqs.length) {
                return Errno.EINVAL;
            }
            VirtQueue first = vqs[start];
            if (!first.exists() || start >= active) {
                return 0;
            }
            return switch (first.state) {
                case INIT -> {
                    int err = modifyBatch(m, start, n, VqState.INIT);
                    yield err != 0 ? err : modifyBatch(m, start, n, VqState.RDY);
                }
                case SUSPEND -> resumable() ? modifyBatch(m, start, n, VqState.RDY) : Errno.EINVAL;
                case RDY -> 0;
                default -> Errno.EINVAL;
            };
        }
        for (int i = start; i < start + n; i++) {
            int err = f.vqErrorsReturned() ? resumeOne(m, vqs[i]) : resumeSuspendedOnly(m, vqs[i]);
            if (err != 0) {
                return err;
            }
        }
        return 0;
    }

    /** v6.11 {@code resume_vq()}. */
    int resumeOne(OpMeter m, VirtQueue vq) {
        if (!vq.exists() || vq.index >= active) {
            return 0;
        }
        switch (vq.state) {
            case INIT -> {
                int err = modifyOne(m, vq, VqState.INIT);
                if (err != 0) {
                    return err;
                }
            }
            case SUSPEND -> {
                if (!resumable()) {
                    return Errno.EINVAL;
                }
            }
            case RDY -> {
                return 0;
            }
            default -> {
                return Errno.EINVAL;
            }
        }
        return modifyOne(m, vq, VqState.RDY);
    }

    /** ≤ v6.10 {@code resume_vq()}: SUSPEND → RDY when resumable, anything else silently skipped. */
    private int resumeSuspendedOnly(OpMeter m, VirtQueue vq) {
        if (vq.state == VqState.SUSPEND && resumable()) {
            modifyOne(m, vq, VqState.RDY);
        }
        return 0;
    }

    /** Resumes one VQ the way {@code set_vq_ready(true)} does after DRIVER_OK (6.11+). */
    int resumeSingle(OpMeter m, VirtQueue vq) {
        return f.asyncVqCommands() ? resumeRange(m, vq.index, 1) : resumeOne(m, vq);
    }

    // ---- MR references (v6.12-era, optional) ----

    private void takeMrRef(VirtQueue vq) {
        if (!f.vqsHoldMrRefs()) {
            return;
        }
        MemoryRegion mr = mrs.dataMr();
        if (mr != null) {
            mr.refs++;
        }
        vq.mr = mr;
    }

    private void dropMrRef(OpMeter m, VirtQueue vq) {
        if (vq.mr != null) {
            MemoryRegion mr = vq.mr;
            vq.mr = null;
            mrs.drop(m, mr);
        }
    }
}
