package org.vdpactl.fake.mlx5;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.sys.Errno;

/**
 * The MRs of one device, one per ASID, with their release path (the driver's {@code mres}, §2):
 * ≤ v6.11 destroys an MR in the caller when its last reference goes, v6.12 hands it to the
 * {@link MrGarbageCollector} and reports the work as deferred.
 */
final class MrResources {
    static final int NUM_ASIDS = 2;

    private final Mlx5Features f;
    private final CommandQueue queue;
    private final MkeyWork mkeys;
    private final MrGarbageCollector gc;
    private final ToDoubleFunction<OpMeter> nowMs;
    private final MemoryRegion[] asidMr = new MemoryRegion[NUM_ASIDS];
    private boolean failNextAllocation;

    /** {@code nowMs} gives the time on the device's clock at a point of an op (NaN without a clock). */
    MrResources(Mlx5Params p, Mlx5Features f, CommandQueue queue, FwCommands cmds, ToDoubleFunction<OpMeter> nowMs) {
        this.f = f;
        this.queue = queue;
        this.mkeys = new MkeyWork(p, f, cmds);
        this.gc = new MrGarbageCollector(p.mrGcDelayMs());
        this.nowMs = nowMs;
    }

    MemoryRegion get(int asid) {
        return asidMr[asid];
    }

    /** Forgets every MR without cost (a fresh device). */
    void forget() {
        Arrays.fill(asidMr, null);
    }

    /** Installs a DMA MR in ASID 0 without cost (the state right after dev_add). */
    void assumeDma() {
        asidMr[0] = new MemoryRegion(null);
    }

    /** Creates the PA-mode DMA MR and installs it in ASID 0. */
    void createDma(OpMeter m) {
        mkeys.buildDma(m);
        asidMr[0] = new MemoryRegion(null);
    }

    /** Builds the MR of {@code table} under the MR lock (waiting for a running GC first). */
    MemoryRegion build(OpMeter m, List<MapEntry> table) {
        m.waitFor(gc.lockWaitMs(nowMs.applyAsDouble(m)));
        double lockFrom = nowMs.applyAsDouble(m);
        MrGeometry g = MrGeometry.of(table);
        if (failNextAllocation) {
            failNextAllocation = false;
            throw KernelError.of(Errno.ENOMEM, "MR command buffers: " + 8 * g.mttEntries() + " bytes");
        }
        int err = mkeys.build(m, g);
        gc.lockHeld(lockFrom, nowMs.applyAsDouble(m));
        if (err != 0) {
            throw KernelError.of(err, "create MR failed: " + Errno.name(err));
        }
        return new MemoryRegion(g);
    }

    /** Installs {@code fresh} (may be null) in {@code asid}, dropping the ASID's reference to the previous MR. */
    void replace(OpMeter m, int asid, MemoryRegion fresh) {
        MemoryRegion old = asidMr[asid];
        asidMr[asid] = fresh;
        if (old != null) {
            drop(m, old);
        }
    }

    /** One more reference on the MR of {@code asid} (mlx5_vdpa_get_mr), or null when it has none. */
    MemoryRegion hold(int asid) {
        MemoryRegion mr = asidMr[asid];
        if (mr != null) {
            mr.refs++;
        }
        return mr;
    }

    /** Puts a reference taken by {@link #hold} (mlx5_vdpa_put_mr); null is nothing. */
    void put(OpMeter m, MemoryRegion held) {
        if (held != null) {
            drop(m, held);
        }
    }

    /** Empties every ASID. */
    void clean(OpMeter m) {
        for (int asid = 0; asid < NUM_ASIDS; asid++) {
            replace(m, asid, null);
        }
    }

    /** Last reference gone: destroy now (≤ v6.11) or hand to the GC (v6.12, cost in deferredNanos). */
    void drop(OpMeter m, MemoryRegion mr) {
        if (--mr.refs > 0) {
            return;
        }
        if (!f.deferredMrDestroy()) {
            release(m, mr);
            return;
        }
        OpMeter work = new OpMeter(queue, false);
        release(work, mr);
        m.deferred(work.elapsedMs());
        gc.enqueue(work, nowMs.applyAsDouble(m));
    }

    private void release(OpMeter m, MemoryRegion mr) {
        if (mr.isDma()) {
            mkeys.releaseDma(m);
        } else {
            mkeys.release(m, mr.geometry);
        }
    }

    /** Lets the GC timer fire up to {@code nowMs}. */
    void catchUp(double now) {
        gc.catchUp(now);
    }

    /** Runs the pending GC work into {@code m} (device free, or the GC thread itself). */
    void drainGc(OpMeter m) {
        for (OpMeter release : gc.drain()) {
            m.absorb(release);
        }
    }

    void failNextAllocation() {
        failNextAllocation = true;
    }

    Optional<MrGeometry> geometry(int asid) {
        MemoryRegion mr = asidMr[asid];
        return mr == null || mr.isDma() ? Optional.empty() : Optional.of(mr.geometry);
    }

    boolean isDma(int asid) {
        return asidMr[asid] != null && asidMr[asid].isDma();
    }

    int pendingGc() {
        return gc.pendingCount();
    }

    double gcFireAtMs() {
        return gc.fireAtMs();
    }
}
