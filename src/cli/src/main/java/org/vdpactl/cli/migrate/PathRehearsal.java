package org.vdpactl.cli.migrate;

import java.util.ArrayList;
import java.util.List;
import org.vdpactl.cli.CliContext;
import org.vdpactl.cli.rehearse.DeviceSelection;
import org.vdpactl.cli.rehearse.HostMemoryBudget;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.orchestra.Rehearsal;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Strategy;
import org.vdpactl.orchestra.WindowMode;

/**
 * {@code migrate check --rehearse}: runs the rehearsals of each pair's path on this host's devices (one
 * iteration each, the VM's memory in 1 GiB regions of 4 KiB pages) and puts their downtime on the path,
 * and on the warning whose cost it is (reset-at-stop: the stop and restart in place). When both sides are
 * this host, on its devices (the fake's models on the fake backend); when a side is a facts document (its
 * devices are on another host), on the fake's models of both sides' devices as the documents describe them
 * ({@link ModelRehearsal}). Figures from the fake's models say so ({@code simulated}, and on what).
 */
final class PathRehearsal {
    private static final long REGION = 1L << 30;
    private static final long PAGE = 4096;

    private final CliContext ctx;
    private final boolean sourceLive;
    private final boolean destLive;
    private final long memoryBytes;
    private final MigrationFacts srcHost;
    private final MigrationFacts dstHost;

    PathRehearsal(CliContext ctx, boolean sourceLive, boolean destLive, long memoryBytes, MigrationFacts srcHost, MigrationFacts dstHost) {
        this.ctx = ctx;
        this.sourceLive = sourceLive;
        this.destLive = destLive;
        this.memoryBytes = memoryBytes;
        this.srcHost = srcHost;
        this.dstHost = dstHost;
    }

    /**
     * A pair with a side from a facts document: each entry rehearsed on the fake's models of the documents'
     * devices ({@link ModelRehearsal}), simulated and saying on what.
     */
    private PairReport onModels(PairReport r, MigrationFacts.DeviceFacts source, MigrationFacts.DeviceFacts dest) {
        List<PairReport.Rehearsal> done = new ArrayList<>();
        Double inPlace = null;
        String inPlaceFrom = null;
        GuestMemoryLayout layout = GuestMemoryLayout.of(memoryBytes, Math.min(REGION, memoryBytes), PAGE, true);
        for (PairReport.Rehearsal x : r.path().rehearsal()) {
            boolean toDest = x.command().contains("--dest DEST");
            if (toDest && dest == null) {
                done.add(x.notRehearsed("the destination has no device " + r.destination()));
                continue;
            }
            ModelRehearsal.Outcome o = ModelRehearsal.run(srcHost, source, dstHost, toDest ? dest : null, x.command(), layout);
            String command = toDest ? x.command().replace("DEST", dest.name()) : x.command();
            if (o.downtimeMs() == null) {
                done.add(x.notRehearsed(o.whyNot()));
                continue;
            }
            done.add(x.simulatedOn(command, o.downtimeMs(), o.model()));
            if (!toDest) {
                inPlace = o.downtimeMs();
                inPlaceFrom = command + " (" + o.model() + ")";
            }
        }
        return withRehearsals(r, done, inPlace, inPlaceFrom);
    }

    /** The pair with its rehearsals done, and the in-place figure as the reset-at-stop warning's cost. */
    private static PairReport withRehearsals(PairReport r, List<PairReport.Rehearsal> done, Double inPlace, String inPlaceFrom) {
        List<PairReport.Finding> warnings = new ArrayList<>();
        for (PairReport.Finding w : r.warnings()) {
            warnings.add(inPlace != null && w.id().equals("reset-at-stop") ? w.withCost(inPlace, inPlaceFrom) : w);
        }
        PairReport.MigrationPath p = r.path();
        PairReport.MigrationPath path = new PairReport.MigrationPath(p.qemuSource(), p.qemuDestination(), p.svq(), p.stop(), p.cvq(),
                p.resumeForRollback(), p.explanation(), done);
        return new PairReport(r.source(), r.destination(), r.verdict(), r.blockers(), path, warnings);
    }

    PairReport rehearse(PairReport r, MigrationFacts.DeviceFacts source, MigrationFacts.DeviceFacts dest) {
        if (r.path() == null) {
            return r;
        }
        if (!sourceLive || !destLive) {
            return onModels(r, source, dest);
        }
        List<PairReport.Rehearsal> done = new ArrayList<>();
        Double inPlace = null;
        String inPlaceCommand = null;
        for (PairReport.Rehearsal x : r.path().rehearsal()) {
            boolean toDest = x.command().contains("--dest DEST");
            if (!source.heldBy().isEmpty()) {
                done.add(x.notRehearsed(r.source() + " is held by " + String.join(", ", source.heldBy())
                        + ": rehearse a free device of the same management device"));
            } else if (toDest && (dest == null || dest.name().equals(source.name()) || !dest.heldBy().isEmpty())) {
                done.add(x.notRehearsed("needs a free destination device on this host: run it with two devices of one host provisioned alike"));
            } else {
                String command = toDest ? x.command().replace("DEST", dest.name()) : x.command();
                RehearsalResult result = run(source.name(), toDest ? dest.name() : null, x.command());
                if (result.completed() && result.lastIteration() != null) {
                    double ms = result.lastIteration().downtimeNanos() / 1e6;
                    done.add(x.measured(command, ms, ctx.simulated()));
                    if (!toDest) {
                        inPlace = ms;
                        inPlaceCommand = command;
                    }
                } else {
                    done.add(x.notRehearsed("the rehearsal did not complete: " + (result.failure() == null ? result.outcome()
                            : result.failure().summary())));
                }
            }
        }
        return withRehearsals(r, done, inPlace, inPlace == null ? null : inPlaceCommand + (ctx.simulated() ? " (simulated)" : ""));
    }

    /** One iteration of the rehearsal a path's command line names (its strategy and window). */
    private RehearsalResult run(String source, String dest, String command) {
        Strategy strategy = Strategy.parse(ModelRehearsal.word(command, "--strategy", "parallel"));
        WindowMode window = WindowMode.parse(ModelRehearsal.word(command, "--window", "migration"));
        GuestMemoryLayout layout = GuestMemoryLayout.of(memoryBytes, Math.min(REGION, memoryBytes), PAGE, true);
        if (!ctx.simulated()) {
            layout = HostMemoryBudget.fit(ctx.syscalls(), layout).layout();
        }
        List<DeviceTarget> sources = List.of(DeviceSelection.resolve(ctx.syscalls(), source));
        RehearsalPlan.Builder plan = RehearsalPlan.builder(sources).strategy(strategy).iterations(1).queuePairs(0).memory(layout)
                .window(window);
        if (dest != null) {
            plan.destinations(List.of(DeviceSelection.resolve(ctx.syscalls(), dest)));
        }
        return new Rehearsal(ctx.syscalls(), ctx.clock()).run(plan.build());
    }
}
