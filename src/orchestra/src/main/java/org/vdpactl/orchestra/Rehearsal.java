package org.vdpactl.orchestra;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.time.Clock;
import org.vdpactl.vhost.IotlbBatchPlanner;
import org.vdpactl.vhost.DeviceStatus;
import org.vdpactl.vhost.IotlbRegion;

/**
 * Runs a {@link RehearsalPlan}: opens the devices, brings them up as a running guest has them,
 * rehearses the downtime window as often as asked, and leaves every device as it found it (a
 * source running, a separate destination reset). Every call on every device is timed.
 *
 * <p>Usage:
 * <pre>
 * RehearsalResult r = new Rehearsal(syscalls, clock).run(plan);
 * r.lastIteration().downtimeNanos();
 * </pre>
 * A failed call stops the window, rolls every device back and ends the rehearsal with
 * {@link RehearsalResult.Outcome#PARTIAL}. Failures before the first window (open, ownership,
 * features, the bring-up) are thrown: nothing was rehearsed. Every fd, mapping and thread the
 * rehearsal created is released on every path.
 */
public final class Rehearsal {
    private static final Logger LOG = LoggerFactory.getLogger(Rehearsal.class);
    /**
     * File descriptors a rehearsal holds per device at most: its vhost-vdpa node, and the kick and call
     * eventfds of its control queue and of its data virtqueues (one pair serves them all: see
     * DeviceSession#dataKick). What a caller checks RLIMIT_NOFILE against before touching a device.
     */
    public static final int FILE_DESCRIPTORS_PER_DEVICE = 5;
    /** File descriptors a rehearsal holds besides its devices': the guest memory's memfd. */
    public static final int FILE_DESCRIPTORS_PER_REHEARSAL = 1;

    /** Iterations whose spans the result keeps at most (see {@link IterationRetention}). */
    static final int KEPT_ITERATIONS = 16;

    private final Syscalls sys;
    private final Clock clock;
    private RehearsalListener listener = RehearsalListener.NONE;
    private BooleanSupplier stopRequested = () -> false;

    public Rehearsal(Syscalls sys, Clock clock) {
        this.sys = Objects.requireNonNull(sys, "sys");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Rehearsal listener(RehearsalListener l) {
        this.listener = Objects.requireNonNull(l, "listener");
        return this;
    }

    /**
     * Asked before each window: once it answers true, no new window starts, the devices stay as the
     * last restore left them (running sources, reset destinations) and the result is
     * {@link RehearsalResult.Outcome#INTERRUPTED} with the iterations that ran. A window that has
     * started always runs to its end and its restore: stopping inside it would leave devices suspended.
     */
    public Rehearsal stopWhen(BooleanSupplier requested) {
        this.stopRequested = Objects.requireNonNull(requested, "requested");
        return this;
    }

    /**
     * Runs the plan.
     *
     * @throws CallFailedException       a device call failed before the first window (open, setup)
     * @throws IllegalArgumentException  the devices cannot run this plan (features, queue counts, memory)
     * @throws IllegalStateException     a device lacks a needed backend feature
     */
    public RehearsalResult run(RehearsalPlan plan) {
        List<DeviceSession> sessions = new ArrayList<>();
        GuestRam ram = null;
        LanePool pool = new LanePool(clock, plan.sources().size());
        try {
            List<MigrationLane> lanes = new ArrayList<>();
            ram = GuestRam.allocate(sys, plan.memory());
            List<IotlbRegion> regions = ram.iotlbRegions();
            IotlbBatchPlanner planner = planner(plan.memory());
            try {
                for (int i = 0; i < plan.sources().size(); i++) {
                    DeviceSession src = open(sessions, plan.sources().get(i));
                    DeviceSession dst = plan.sameDevices() ? src : open(sessions, plan.destinations().get(i));
                    lanes.add(new MigrationLane(plan, src, dst, regions, planner));
                }
                pool.forEach(lanes, MigrationLane::open);
                List<GuestRam.RingSpace> rings = new ArrayList<>();
                for (MigrationLane lane : lanes) {
                    rings.add(ram.reserveRings(lane.ringBytes()));
                }
                pool.forEach(indices(lanes.size()), i -> lanes.get(i).bringUpSource(rings.get(i)));
            } catch (CallFailedException e) {
                if (e.getCause() instanceof UncheckedIOException) {
                    // not a device's answer but the host's files (the fake's state file): the environment failed, not a device;
                    // the devices opened so far are closed below, and the caller decides the exit code by its type
                    throw e;
                }
                return setUpFailed(plan, sessions, e);
            }
            List<Span> setupSpans = drain(sessions);
            listener.setUpDone(sessions.size());
            return rehearse(plan, lanes, sessions, pool, setupSpans);
        } finally {
            try {
                closeAll(sessions, ram, pool);
            } finally {
                pool.close();
            }
        }
    }

    private RehearsalResult rehearse(RehearsalPlan plan, List<MigrationLane> lanes, List<DeviceSession> sessions, LanePool pool,
            List<Span> setupSpans) {
        WindowScheduler scheduler = new WindowScheduler(pool);
        RehearsalStatistics stats = new RehearsalStatistics();
        IterationRetention timelines = new IterationRetention(KEPT_ITERATIONS);
        List<Phase> phases = plan.orderedPhases();
        RehearsalFailure failure = null;
        Phase endLabel = Phase.RESTORE;
        boolean stopped = false;
        for (int i = 0; i < plan.iterations() && failure == null; i++) {
            if (stopRequested.getAsBoolean()) {
                stopped = true;
                LOG.info("stop requested: no new window after {} of {} iterations", i, plan.iterations());
                break;
            }
            WindowControl control = new WindowControl();
            scheduler.run(plan.strategy(), lanes, phases, control);
            listener.windowDone(i);
            if (control.aborted()) {
                failure = control.failure();
                endLabel = Phase.ROLLBACK;
                LOG.warn("rehearsal stopped: {}; rolling every device back", failure.summary());
            }
            pool.forEach(lanes, lane -> lane.restore(control.aborted() ? Phase.ROLLBACK : Phase.RESTORE));
            Timeline t = new Timeline(i, plan.strategy(), plan.lanes(), drain(sessions), plan.preparationPhases());
            timelines.add(t);
            if (failure == null) {
                failure = restoreFailure(t);
                if (failure == null) {
                    stats.record(t);
                    listener.iterationDone(i, plan.iterations(), t);
                } else {
                    endLabel = Phase.ROLLBACK;
                }
            }
        }
        if (!stopped && failure == null && stopRequested.getAsBoolean()) {
            // the request came during the last window: that window ran to its end (the safe point) and every device
            // was restored, but the caller asked to stop and must hear that it was heard, not a plain completion
            stopped = true;
            LOG.info("stop requested during the last window: every iteration ran");
        }
        Phase label = endLabel;
        List<DeviceReport> reports = new ArrayList<>();
        for (MigrationLane lane : lanes) {
            reports.addAll(lane.report(label));
        }
        listener.beforeClose(reports);
        if (failure == null) {
            failure = unknownDevice(reports);
        }
        RehearsalResult.Outcome outcome = failure != null ? RehearsalResult.Outcome.PARTIAL
                : stopped ? RehearsalResult.Outcome.INTERRUPTED : RehearsalResult.Outcome.COMPLETED;
        List<String> perDevice = new ArrayList<>();
        lanes.forEach(l -> perDevice.addAll(l.setupNotes()));
        List<String> notes = mergedByDevice(perDevice, plan);
        return new RehearsalResult(plan, outcome, failure, setupSpans, timelines.kept(), stats, reports, drain(sessions), notes,
                timelines.count());
    }

    /**
     * The lanes' notes with one line per distinct text: "mlx5-0: X" and "mlx5-1: X" become "mlx5-0, mlx5-1: X" (the
     * same 6.1 RESUME note repeated for each of 64 devices hid every other note).
     */
    static List<String> mergedByDevice(List<String> notes, RehearsalPlan plan) {
        Set<String> devices = new HashSet<>();
        plan.sources().forEach(t -> devices.add(t.name()));
        if (plan.destinations() != null) {
            plan.destinations().forEach(t -> devices.add(t.name()));
        }
        Map<String, List<String>> byText = new LinkedHashMap<>();
        for (String n : notes) {
            int colon = n.indexOf(": ");
            boolean named = colon > 0 && devices.contains(n.substring(0, colon));
            String text = named ? n.substring(colon + 2) : n;
            List<String> names = byText.computeIfAbsent(text, k -> new ArrayList<>());
            if (named && !names.contains(n.substring(0, colon))) {
                names.add(n.substring(0, colon));
            }
        }
        List<String> out = new ArrayList<>();
        byText.forEach((text, names) -> out.add(names.isEmpty() ? text : String.join(", ", names) + ": " + text));
        return out;
    }

    /** A device the rehearsal could not leave in a known state makes the outcome partial, naming it. */
    private static RehearsalFailure unknownDevice(List<DeviceReport> reports) {
        for (DeviceReport r : reports) {
            if (r.state() == DeviceState.UNKNOWN) {
                return new RehearsalFailure(r.name(), Phase.RESTORE, "final state", -1,
                        r.name() + " was not left in a known state: " + r.detail());
            }
        }
        return null;
    }

    /**
     * A call of the bring-up failed: nothing was rehearsed, but devices were touched. Each opened
     * device is reset (a known state) and reported, and the result is PARTIAL like a failed window,
     * so the CLI prints the per-device report and JSON instead of one line.
     */
    private RehearsalResult setUpFailed(RehearsalPlan plan, List<DeviceSession> sessions, CallFailedException e) {
        RehearsalFailure failure = RehearsalFailure.of(e);
        LOG.warn("set-up stopped: {}; resetting every device", failure.summary());
        List<Span> setupSpans = drain(sessions);
        List<DeviceReport> reports = new ArrayList<>();
        for (DeviceSession d : sessions) {
            reports.add(resetAfterSetUp(d, failure));
        }
        reports.addAll(notOpened(plan, sessions, failure));
        return new RehearsalResult(plan, RehearsalResult.Outcome.PARTIAL, failure, setupSpans, List.of(),
                new RehearsalStatistics(), reports, drain(sessions), List.of(), 0);
    }

    private static DeviceReport resetAfterSetUp(DeviceSession d, RehearsalFailure failure) {
        d.rec.enter(Phase.ROLLBACK, null);
        String role = "source";
        String status = null;
        DeviceStatus read = null;
        DeviceState state;
        String detail;
        try {
            d.reset();
            DeviceStatus st = d.status();
            read = st;
            status = st.toString();
            state = st.bits() == 0 ? DeviceState.RESET : DeviceState.UNKNOWN;
            detail = "set-up stopped (" + failure.summary() + "); reset" + (state == DeviceState.RESET ? "" : " but the status reads back " + status);
        } catch (CallFailedException f) {
            state = DeviceState.UNKNOWN;
            detail = "set-up stopped (" + failure.summary() + "); " + f.span().call() + " failed: " + f.span().errnoName();
        }
        return DeviceReport.of(d.target.name(), d.target.path(), role, state, false, read, detail);
    }

    /**
     * The devices of the plan the set-up never held open: the one whose open failed and those after
     * it. A node that is not held open is closed, which is a known state (the kernel resets a
     * vhost-vdpa device when its last opener closes it).
     */
    private static List<DeviceReport> notOpened(RehearsalPlan plan, List<DeviceSession> sessions, RehearsalFailure failure) {
        Set<String> opened = new HashSet<>();
        sessions.forEach(s -> opened.add(s.target.path()));
        Map<String, DeviceReport> out = new LinkedHashMap<>();
        for (int i = 0; i < plan.sources().size(); i++) {
            addNotOpened(out, opened, plan.sources().get(i), plan.sameDevices() ? "source+destination" : "source", failure);
            if (!plan.sameDevices()) {
                addNotOpened(out, opened, plan.destinations().get(i), "destination", failure);
            }
        }
        return List.copyOf(out.values());
    }

    private static void addNotOpened(Map<String, DeviceReport> out, Set<String> opened, DeviceTarget t,
            String role, RehearsalFailure failure) {
        if (opened.contains(t.path()) || out.containsKey(t.path())) {
            return;
        }
        boolean failedHere = t.name().equals(failure.device()) && failure.call().startsWith("open ");
        String detail = failedHere ? "open failed (" + failure.errnoName() + ") in the " + failure.phase().label()
                + " phase; the node stays closed" : "not opened: the set-up stopped before (" + failure.summary() + ")";
        out.put(t.path(), DeviceReport.of(t.name(), t.path(), role, DeviceState.CLOSED, false, null, detail));
    }

    /** A restore between iterations that failed is a failure too (the devices were then reset). */
    private static RehearsalFailure restoreFailure(Timeline t) {
        for (Span s : t.spans()) {
            if (s.failed() && s.phase() == Phase.RESTORE) {
                return new RehearsalFailure(s.device(), s.phase(), s.call(), s.errno(), s.call() + " failed: " + s.errnoName());
            }
        }
        return null;
    }

    private DeviceSession open(List<DeviceSession> sessions, DeviceTarget target) {
        DeviceSession s = DeviceSession.open(sys, clock, target);
        sessions.add(s);
        return s;
    }

    /** One IOTLB UPDATE per region and one batch for the whole layout: a set_map driver then builds its map once. */
    static IotlbBatchPlanner planner(GuestMemoryLayout layout) {
        long page = layout.smallestPageSize();
        return IotlbBatchPlanner.builder().pageSize(page).maxPagesPerBatch(Long.MAX_VALUE / page).build();
    }

    private static List<Integer> indices(int n) {
        List<Integer> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(i);
        }
        return out;
    }

    private static List<Span> drain(List<DeviceSession> sessions) {
        List<Span> out = new ArrayList<>();
        for (DeviceSession s : sessions) {
            out.addAll(s.rec.drain());
        }
        return out;
    }

    /**
     * Closes every session on the lane threads: closing a node resets its device, which a driver
     * may take half a second to do (mlx5), so one device after another cost minutes at 256 devices.
     */
    private static void closeAll(List<DeviceSession> sessions, GuestRam ram, LanePool pool) {
        try {
            pool.forEach(sessions, Rehearsal::closeQuietly);
        } catch (RuntimeException e) {
            LOG.warn("closing on the lane threads failed ({}); closing one by one", e.toString());
            sessions.forEach(Rehearsal::closeQuietly);
        }
        if (ram != null) {
            ram.close();
        }
    }

    private static void closeQuietly(DeviceSession s) {
        try {
            s.close();
        } catch (RuntimeException e) {
            LOG.warn("{}: close failed: {}", s.target.name(), e.getMessage());
        }
    }
}
