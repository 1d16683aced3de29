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
 * and on the warning whose cost it is (reset-at-stop: the stop and restart in place). A device of a
 * facts document is on another host and is not rehearsed here; the entry says so. Figures on the fake
 * are the fake's models and say so ({@code simulated}).
 */
final class PathRehearsal {
    private static final long REGION = 1L << 30;
    private static final long PAGE = 4096;

    private final CliContext ctx;
    private final boolean sourceLive;
    private final boolean destLive;
    private final long memoryBytes;

    PathRehearsal(CliContext ctx, boolean sourceLive, boolean destLive, long memoryBytes) {
        this.ctx = ctx;
        this.sourceLive = sourceLive;
        this.destLive = destLive;
        this.memoryBytes = memoryBytes;
    }

    PairReport rehearse(PairReport r, MigrationFacts.DeviceFacts source, MigrationFacts.DeviceFacts dest) {
        if (r.path() == null) {
            return r;
        }
        List<PairReport.Rehearsal> done = new ArrayList<>();
        Double inPlace = null;
        String inPlaceCommand = null;
        for (PairReport.Rehearsal x : r.path().rehearsal()) {
            boolean toDest = x.command().contains("--dest DEST");
            if (!sourceLive) {
                done.add(x.notRehearsed(r.source() + " is on the source host of a facts document: run it there"));
            } else if (!source.heldBy().isEmpty()) {
                done.add(x.notRehearsed(r.source() + " is held by " + String.join(", ", source.heldBy())
                        + ": rehearse a free device of the same management device"));
            } else if (toDest && (!destLive || dest == null || dest.name().equals(source.name()) || !dest.heldBy().isEmpty())) {
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
        List<PairReport.Finding> warnings = new ArrayList<>();
        for (PairReport.Finding w : r.warnings()) {
            warnings.add(inPlace != null && w.id().equals("reset-at-stop")
                    ? w.withCost(inPlace, inPlaceCommand + (ctx.simulated() ? " (simulated)" : "")) : w);
        }
        PairReport.MigrationPath p = r.path();
        PairReport.MigrationPath path = new PairReport.MigrationPath(p.qemuSource(), p.qemuDestination(), p.svq(), p.stop(), p.cvq(),
                p.resumeForRollback(), p.explanation(), done);
        return new PairReport(r.source(), r.destination(), r.verdict(), r.blockers(), path, warnings);
    }

    /** One iteration of the rehearsal a path's command line names (its strategy and window). */
    private RehearsalResult run(String source, String dest, String command) {
        Strategy strategy = Strategy.parse(word(command, "--strategy", "parallel"));
        WindowMode window = WindowMode.parse(word(command, "--window", "migration"));
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

    private static String word(String command, String option, String otherwise) {
        String[] w = command.split(" ");
        for (int i = 0; i + 1 < w.length; i++) {
            if (w[i].equals(option)) {
                return w[i + 1];
            }
        }
        return otherwise;
    }
}
