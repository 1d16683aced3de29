package org.vdpactl.orchestra;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.sys.Errno;
import org.vdpactl.vhost.DeviceStatus;
import org.vdpactl.vhost.IotlbBatchPlanner;
import org.vdpactl.vhost.IotlbMessage;
import org.vdpactl.vhost.IotlbPermission;
import org.vdpactl.vhost.IotlbRegion;
import org.vdpactl.vhost.VringAddress;

/**
 * The migration of one device through the window phases, and the way back to a known state.
 *
 * <p>Source side: SUSPEND, GET_VRING_BASE of every data virtqueue (not of the control queue, whose
 * position the rehearsal knows), status and config read back (and, in a stop-and-copy rehearsal, the
 * memory unmapped). Destination side: reset (same device only),
 * ACK/DRIVER/features/FEATURES_OK, every vring's num/base/addr (the saved bases), the memory map as
 * one IOTLB batch, DRIVER_OK, the queue-pair count replayed through the control queue. Where the
 * device offers ENABLE_AFTER_DRIVER_OK the vrings are enabled as QEMU 8.2+ enables them: the control
 * queue after DRIVER_OK, the data queues after its state load ({@link DeviceSession#enablesAfterDriverOk}).
 * RESUME only for a device that is still suspended: one the window reset and restarted has nothing
 * to resume (QEMU 10.0 restarts a stopped device from reset and never issues VHOST_VDPA_RESUME).
 *
 * <p>{@link #restore} brings the lane back to where it stood before the window: the source running
 * (resumed, mapped, DRIVER_OK) and a separate destination reset with its memory as before. It is
 * used between iterations and, after a failure, as the rollback; when a device cannot be brought
 * back it is reset and unmapped instead, and if even that fails it is reported as unknown.
 */
final class MigrationLane {
    private static final Logger LOG = LoggerFactory.getLogger(MigrationLane.class);
    private static final long PAGE = GuestRam.PAGE;

    private final RehearsalPlan plan;
    private final DeviceSession src;
    private final DeviceSession dst;
    private final List<IotlbRegion> regions;
    private final IotlbBatchPlanner planner;
    private GuestRam.RingSpace rings;
    private ControlQueue cvq;
    private long features;
    private int queuePairs = 1;
    /** Vring bases the lane resumes from: the last saved ones (zeros before the first save). */
    private int[] bases;
    /** A device the window went through that needed no call afterwards (not "untouched": it was). */
    static final String NOTHING_TO_UNDO = "nothing to undo: the window left it running";
    private final List<String> srcNotes = new ArrayList<>();
    private final List<String> dstNotes = new ArrayList<>();
    private DeviceState srcState = DeviceState.RUNNING;
    private DeviceState dstState = DeviceState.RESET;
    private final List<String> setupNotes = new ArrayList<>();
    /** svq: destinations start with shadow vrings; sources run with the control queue in its own address space. */
    private final boolean shadowed;
    /** svq: host memory of the data virtqueues' shadow rings (mapped at {@link #shadowIova}, outside guest memory). */
    private GuestRam.RingSpace shadowRings;
    private long shadowIova;

    MigrationLane(RehearsalPlan plan, DeviceSession src, DeviceSession dst, List<IotlbRegion> regions, IotlbBatchPlanner planner) {
        this.plan = plan;
        this.src = src;
        this.dst = dst;
        this.regions = regions;
        this.planner = planner;
        this.shadowed = plan.strategy().shadowed();
    }

    boolean sameDevice() {
        return src == dst;
    }

    DeviceSession source() {
        return src;
    }

    DeviceSession destination() {
        return dst;
    }

    /**
     * Ring memory this lane needs in guest RAM (known once the source is set up): the data rings,
     * with svq as much again for their shadow rings, then the control queue.
     */
    long ringBytes() {
        long data = dataRingBytes();
        return data * (shadowed ? 2 : 1) + (src.hasControlQueue() ? ControlQueue.bytes() : 0);
    }

    private long dataRingBytes() {
        return (long) (src.vqCount() - (src.hasControlQueue() ? 1 : 0)) * 3 * PAGE;
    }

    // ---------------------------------------------------------------- setup (outside the window)

    /** Owner, backend features and facts of both devices; checks that the destination can take the source's state. */
    void open() {
        boolean persist = plan.premap() && sameDevice();
        src.setUp(persist);
        if (!sameDevice()) {
            dst.setUp(false);
        }
        features = src.wantedFeatures();
        bases = new int[src.vqCount()];
        if (!sameDevice()) {
            if (dst.vqCount() != src.vqCount()) {
                throw new IllegalArgumentException(dst.target.name() + " has " + dst.vqCount() + " virtqueues but its source "
                        + src.target.name() + " has " + src.vqCount());
            }
            long missing = features & ~dst.offeredFeatures();
            if (missing != 0) {
                throw new IllegalArgumentException(dst.target.name() + " lacks features of its source " + src.target.name()
                        + ": 0x" + Long.toHexString(missing));
            }
        }
        if (src.hasMultiQueue()) {
            int want = plan.queuePairs() == 0 ? src.maxQueuePairs() : plan.queuePairs();
            if (want > src.maxQueuePairs() || (!sameDevice() && want > dst.maxQueuePairs())) {
                throw new IllegalArgumentException(src.target.name() + " offers " + src.maxQueuePairs() + " queue pairs, "
                        + want + " requested");
            }
            queuePairs = want;
        }
        if (shadowed) {
            placeShadowRings();
        }
    }

    /**
     * The shadow rings go right above the guest memory's highest IOVA, where QEMU's IOVA tree would
     * put VMM memory too; every device has its own IOVA space, so all lanes use the same place. A
     * device whose IOVA range ends below them is refused before the window, naming both.
     */
    private void placeShadowRings() {
        long top = 0;
        for (IotlbRegion r : regions) {
            top = Math.max(top, r.iova() + r.size());
        }
        shadowIova = (top + PAGE - 1) & -PAGE;
        long last = shadowIova + Math.max(dataRingBytes(), PAGE) - 1;
        for (DeviceSession d : sameDevice() ? List.of(src) : List.of(src, dst)) {
            if (!d.iovaRange().contains(shadowIova, last - shadowIova + 1)) {
                throw new IllegalArgumentException(d.target.name() + "'s IOVA range " + d.iovaRange() + " has no room for the shadow"
                        + " rings at 0x" + Long.toHexString(shadowIova) + "-0x" + Long.toHexString(last) + " above the guest memory");
            }
        }
    }

    /** Places the rings in guest RAM and brings the source up as a running guest has it. */
    void bringUpSource(GuestRam.RingSpace space) {
        this.rings = space;
        if (shadowed) {
            shadowRings = space.slice(dataRingBytes(), dataRingBytes());
        }
        if (src.hasControlQueue()) {
            long cvqOffset = ringBytes() - ControlQueue.bytes();
            cvq = new ControlQueue(space.slice(cvqOffset, ControlQueue.bytes()), src.queueSize());
        }
        src.rec.enter(Phase.SETUP, null);
        try {
            bringUp(src);
        } catch (CallFailedException e) {
            if (!isUnansweredControlCommand(e)) {
                throw e;
            }
            // a device that never answers its control queue can still be rehearsed, with one pair
            setupNotes.add(src.target.name() + ": the control queue did not answer " + e.span().call() + " within "
                    + plan.cvqTimeout().toMillis() + " ms; rehearsing with 1 queue pair, without the CVQ MQ phase");
            queuePairs = 1;
            enableDataQueuesLate(src); // the state load failed before them: the data queues still run
        }
        if (!sameDevice() && plan.premap()) {
            dst.rec.enter(Phase.PREMAP, null);
            dst.map(regions, planner);
        }
        // the bring-up is not the window: a source the window never reaches is reported "untouched"
        src.untouched();
    }

    private static boolean isUnansweredControlCommand(CallFailedException e) {
        return e.span().call().startsWith("CVQ ") && e.span().errno() == Errno.ETIMEDOUT;
    }

    /**
     * A destination the window reset and started (or a separate destination, reset before it) is not
     * suspended, so there is nothing to resume: it runs from DRIVER_OK on, as a QEMU destination does
     * and as QEMU 10.0's cont restarts a stopped device (it never issues VHOST_VDPA_RESUME), and the
     * resume phase is empty for every device. A device that lacks RESUME is said once, because a reader
     * of that kernel's report may look for the fallback; one that has it needs no note (docs/rehearse.md).
     */
    private void noteNothingToResume(DeviceSession d) {
        if (!d.canResume()) {
            addSetupNote(d.target.name() + ": no RESUME (VHOST_BACKEND_F_RESUME not offered): the resume phase runs nothing;"
                    + " the device was reset and runs from DRIVER_OK on, as a QEMU destination does, so the window ends there");
        }
    }

    private void addSetupNote(String note) {
        synchronized (setupNotes) {
            if (!setupNotes.contains(note)) {
                setupNotes.add(note);
            }
        }
    }

    /** What the set-up had to change (a device without a working control queue), for the result's notes. */
    List<String> setupNotes() {
        synchronized (setupNotes) {
            return List.copyOf(setupNotes);
        }
    }

    private VringAddress address(int vq) {
        if (vq == src.controlQueueIndex()) {
            return cvq.address();
        }
        long base = rings.iova() + (long) vq * 3 * PAGE;
        return VringAddress.of(base, base + PAGE, base + 2 * PAGE);
    }

    private int baseOf(int vq) {
        return vq == src.controlQueueIndex() ? cvq.availIndex() : bases[vq];
    }

    /** Everything a driver does from reset to a running device, with the lane's vring bases. */
    private void bringUp(DeviceSession d) {
        if (d.driverOk() || d.touched()) {
            d.reset();
            d.dropLooseMaps(-1);
        }
        startFromReset(d);
    }

    /**
     * Features, vrings from the lane's bases, the map when needed, DRIVER_OK, the queue pairs; with
     * svq the control queue first gets its own address space where the device can give it one.
     */
    private void startFromReset(DeviceSession d) {
        d.negotiate(features, false);
        if (shadowed) {
            isolateControlQueue(d);
        }
        configureVrings(d);
        if (d.memory() != DeviceSession.Memory.MAPPED) {
            d.map(regions, planner);
        }
        d.driverOkStatus();
        enableControlQueueLate(d);
        setQueuePairs(d);
        enableDataQueuesLate(d);
    }

    /** After DRIVER_OK, where the device enables late: the control queue, before its state load. */
    private static void enableControlQueueLate(DeviceSession d) {
        if (d.enablesAfterDriverOk() && d.hasControlQueue()) {
            d.enableVring(d.controlQueueIndex());
        }
    }

    /** After the control queue's state load, where the device enables late: every data queue, in index order. */
    private static void enableDataQueuesLate(DeviceSession d) {
        if (!d.enablesAfterDriverOk()) {
            return;
        }
        for (int vq = 0; vq < d.vqCount(); vq++) {
            if (vq != d.controlQueueIndex()) {
                d.enableVring(vq);
            }
        }
    }

    private void configureVrings(DeviceSession d) {
        for (int vq = 0; vq < d.vqCount(); vq++) {
            d.configureVring(vq, baseOf(vq), address(vq));
        }
    }

    /**
     * QEMU 8.0+ without SVQ on a device that can isolate its control queue (vhost_vdpa_net_cvq_start):
     * the CVQ's group goes to address space 1 and only the CVQ's memory is mapped there (the
     * rehearsal's CVQ ring and command buffers, one update). A reset puts every group back in
     * address space 0, so this runs at every start.
     */
    private void isolateControlQueue(DeviceSession d) {
        if (!d.hasControlQueue()) {
            return;
        }
        AddressSpaces as = d.addressSpaces();
        if (!as.cvqIsolated()) {
            addSetupNote(d.target.name() + ": the control queue stays in address space 0 (" + as.reason()
                    + "), where QEMU leaves it too (net/vhost-vdpa.c vhost_vdpa_net_cvq_start)");
            return;
        }
        d.setGroupAsid(as.cvqGroup(), as.cvqAsid());
        GuestRam.RingSpace space = cvq.space();
        d.mapLoose(IotlbMessage.update(as.cvqAsid(), space.iova(), space.memory().byteSize(), space.memory().address(),
                IotlbPermission.RW));
    }

    /**
     * The start of a shadowed destination (QEMU's vhost_vdpa_svqs_start): every vring in address
     * space 0, each data vring on its shadow ring, whose two areas are mapped one update each; the
     * control queue keeps the rehearsal's own ring, which lies in the guest memory set_map maps.
     */
    private void configureShadowVrings(DeviceSession d) {
        d.negotiate(features, true);
        for (int vq = 0; vq < d.vqCount(); vq++) {
            if (vq == d.controlQueueIndex()) {
                d.configureShadowVring(vq, baseOf(vq), address(vq), List.of());
                continue;
            }
            long offset = (long) vq * 3 * PAGE;
            long iova = shadowIova + offset;
            long host = shadowRings.memory().address() + offset;
            d.configureShadowVring(vq, baseOf(vq), VringAddress.of(iova, iova + PAGE, iova + 2 * PAGE), List.of(
                    IotlbMessage.update(0, iova, 2 * PAGE, host, IotlbPermission.RO),
                    IotlbMessage.update(0, iova + 2 * PAGE, PAGE, host + 2 * PAGE, IotlbPermission.RW)));
        }
    }

    private void setQueuePairs(DeviceSession d) {
        if (d.hasMultiQueue() && queuePairs > 1) {
            d.setQueuePairs(cvq, queuePairs, plan.cvqTimeout());
        }
    }

    // ---------------------------------------------------------------- the window

    /** Runs one window phase of this lane; failures surface as {@link CallFailedException}. */
    void run(Phase phase, WindowControl control) {
        DeviceSession d = phase.side() == Phase.Side.DESTINATION ? dst : src;
        d.rec.enter(phase, control);
        switch (phase) {
            case SUSPEND -> d.suspend();
            case SAVE_STATE -> saveState(d);
            case UNMAP -> d.unmap(regions);
            case RESET -> {
                d.reset();
                if (shadowed) {
                    // QEMU's stop unmaps what it mapped one by one (vhost_vdpa_svq_unmap_rings, vhost_vdpa_cvq_unmap_buf)
                    d.dropLooseMaps(-1);
                }
            }
            case CONFIGURE -> {
                if (shadowed) {
                    configureShadowVrings(d);
                } else {
                    d.negotiate(features, false);
                    configureVrings(d);
                }
            }
            case MAP -> d.map(regions, planner);
            case DRIVER_OK -> {
                d.driverOkStatus();
                enableControlQueueLate(d);
                if (!plan.runs(Phase.CVQ_MQ)) {
                    enableDataQueuesLate(d); // no state load in this plan: the data queues follow at once
                }
            }
            case CVQ_MQ -> {
                setQueuePairs(d);
                enableDataQueuesLate(d);
            }
            case RESUME -> {
                if (d.suspended() && !d.canResume()) {
                    // no RESUME: restart from reset with the saved state, as QEMU starts a device
                    restart(d);
                } else if (d.suspended()) {
                    d.resume();
                } else {
                    noteNothingToResume(d);
                }
            }
            default -> throw new IllegalArgumentException(phase + " is not a window phase");
        }
    }

    /**
     * The data queues' positions from the device (or, after a reset standing in for SUSPEND, from the
     * guest's used rings), then status and config. The control queue's position is not read back: the
     * rehearsal drives its control queue itself and knows how far it got, as QEMU 8.0+ does with its
     * shadowed control queue (QEMU 10.0 reads no CVQ base at stop; vhost_vdpa_get_vring_base answers from
     * the shadow virtqueue).
     */
    private void saveState(DeviceSession d) {
        int[] saved = new int[d.vqCount()];
        for (int vq = 0; vq < saved.length; vq++) {
            if (vq == d.controlQueueIndex()) {
                saved[vq] = cvq.availIndex();
            } else if (d.stoppedByReset()) {
                // GET_VRING_BASE of a reset device says nothing: take the used idx from the guest's ring
                int q = vq;
                saved[vq] = d.usedIndexFromGuest(q, () -> usedIndex(q));
            } else {
                saved[vq] = d.vringBase(vq);
            }
        }
        d.status();
        d.readConfig();
        bases = saved;
    }

    /** The used ring's idx (offset 2 of the used ring, little endian) of a data queue in guest RAM. */
    private int usedIndex(int vq) {
        long offset = (long) vq * 3 * PAGE + 2 * PAGE + 2;
        return Short.toUnsignedInt(rings.memory().get(ValueLayout.JAVA_SHORT_UNALIGNED
                .withOrder(ByteOrder.LITTLE_ENDIAN), offset));
    }

    /** Reset and the full start from the saved state, standing in for RESUME (recorded in the current phase). */
    private void restart(DeviceSession d) {
        d.resetInsteadOfResume();
        startFromReset(d);
    }

    // ---------------------------------------------------------------- back to a known state

    /**
     * Brings the lane back to its pre-window state (see the class comment). Never throws for a
     * device failure: the outcome is in the lane's states and notes.
     */
    void restore(Phase label) {
        srcNotes.clear();
        dstNotes.clear();
        srcState = restoreRunning(src, label, srcNotes);
        if (!sameDevice()) {
            dstState = restoreDestination(label);
        }
    }

    private DeviceState restoreRunning(DeviceSession d, Phase label, List<String> notes) {
        d.rec.enter(label, null);
        // a device left on shadow vrings goes back to its own rings by a restart, as QEMU's switch back does
        boolean wasReset = !d.driverOk() || d.shadowVrings();
        try {
            if (!wasReset) {
                if (d.memory() != DeviceSession.Memory.MAPPED) {
                    d.map(regions, planner);
                    notes.add("memory mapped again");
                }
                if (d.suspended()) {
                    if (!d.canResume()) {
                        notes.add("no RESUME: " + StopFallback.RESTART_INSTEAD_OF_RESUME);
                        restart(d);
                        notes.add("restarted from saved state");
                        return DeviceState.RUNNING;
                    }
                    d.resume();
                    notes.add("resumed");
                }
                if (d.hasMultiQueue() && d.activeQueuePairs() != queuePairs) {
                    setQueuePairs(d);
                    notes.add("queue pairs set again");
                }
                return DeviceState.RUNNING;
            }
        } catch (CallFailedException | IllegalStateException e) {
            notes.add("resuming failed (" + brief(e) + "), restarting it");
        }
        try {
            bringUp(d);
            notes.add("restarted from saved state (reset, features, vrings, map, DRIVER_OK"
                    + (d.hasMultiQueue() && queuePairs > 1 ? ", queue pairs" : "") + ")");
            return DeviceState.RUNNING;
        } catch (CallFailedException e) {
            notes.add("restart failed (" + brief(e) + ")");
            return resetAndUnmap(d, false, notes);
        }
    }

    private DeviceState restoreDestination(Phase label) {
        if (!dst.touched()) {
            return dstState;
        }
        dst.rec.enter(label, null);
        DeviceState s = resetAndUnmap(dst, plan.premap(), dstNotes);
        dst.untouched();
        return s;
    }

    /** Reset, then the memory back to {@code mapped} (premapped destination) or unmapped. */
    private DeviceState resetAndUnmap(DeviceSession d, boolean mapped, List<String> notes) {
        try {
            d.reset();
            d.dropLooseMaps(-1);
            if (mapped) {
                d.map(regions, planner);
            } else if (d.memory() != DeviceSession.Memory.UNMAPPED) {
                d.unmap(regions);
            }
            notes.add(mapped ? "reset, memory mapped as before" : "reset and unmapped");
            return DeviceState.RESET;
        } catch (CallFailedException e) {
            LOG.warn("{}: could not reset: {}", d.target.name(), e.getMessage());
            notes.add("reset failed (" + brief(e) + ")");
            return DeviceState.UNKNOWN;
        }
    }

    private static String brief(RuntimeException e) {
        if (e instanceof CallFailedException c) {
            return c.span().call() + ": " + c.span().errnoName();
        }
        return e.getMessage();
    }

    /** Reads each device's status back and describes where it stands. */
    List<DeviceReport> report(Phase label) {
        List<DeviceReport> out = new ArrayList<>();
        out.add(describe(src, sameDevice() ? "source+destination" : "source", srcState, srcNotes, label));
        if (!sameDevice()) {
            out.add(describe(dst, "destination", dstState, dstNotes, label));
        }
        return out;
    }

    private static DeviceReport describe(DeviceSession d, String role, DeviceState expected, List<String> notes, Phase label) {
        d.rec.enter(label, null);
        DeviceStatus read = null;
        DeviceState state = expected;
        List<String> detail = new ArrayList<>(notes);
        try {
            DeviceStatus st = d.status();
            read = st;
            boolean running = st.has(DeviceStatus.DRIVER_OK) && !st.has(DeviceStatus.FAILED) && !st.has(DeviceStatus.NEEDS_RESET);
            if (expected == DeviceState.RUNNING && !running || expected == DeviceState.RESET && st.bits() != 0) {
                state = DeviceState.UNKNOWN;
                detail.add("status read back does not match " + expected.name().toLowerCase(Locale.ROOT));
            }
        } catch (CallFailedException e) {
            state = DeviceState.UNKNOWN;
            detail.add("GET_STATUS failed: " + e.span().errnoName());
        }
        boolean mapped = d.memory() == DeviceSession.Memory.MAPPED;
        return DeviceReport.of(d.target.name(), d.target.path(), role, state, mapped, read,
                !detail.isEmpty() ? String.join("; ", detail) : d.touched() ? NOTHING_TO_UNDO : "untouched");
    }

}
