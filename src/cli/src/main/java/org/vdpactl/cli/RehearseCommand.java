package org.vdpactl.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import org.vdpactl.cli.host.HolderUsers;
import org.vdpactl.cli.host.ResourcePreflight;
import org.vdpactl.cli.rehearse.PremapPreflight;
import org.vdpactl.cli.rehearse.CompareJson;
import org.vdpactl.cli.rehearse.CompareText;
import org.vdpactl.cli.rehearse.DeviceSelection;
import org.vdpactl.cli.rehearse.HostMemoryBudget;
import org.vdpactl.cli.rehearse.MemoryOptions;
import org.vdpactl.cli.rehearse.ProgressLine;
import org.vdpactl.cli.rehearse.ReportFile;
import org.vdpactl.orchestra.DeviceReport;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.orchestra.Phase;
import org.vdpactl.orchestra.Rehearsal;
import org.vdpactl.orchestra.RehearsalListener;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Strategy;
import org.vdpactl.orchestra.Timeline;
import org.vdpactl.orchestra.WindowMode;
import org.vdpactl.report.HtmlReport;
import org.vdpactl.report.JsonDocument;
import org.vdpactl.report.RehearsalJson;
import org.vdpactl.report.RehearsalText;
import org.vdpactl.report.RunInfo;
import org.vdpactl.sim.PresetComparison;
import org.vdpactl.sim.UpstreamScenarios;
import org.vdpactl.vhost.MissingBackendFeaturesException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code vdpactl rehearse}: the main job. Rehearses the downtime of a live migration (suspend, vring
 * bases, reset, features and vrings, the memory map, DRIVER_OK, the queue pairs, resume) across
 * devices, times every call and prints where the time goes. Exit code 0, or 6 (PARTIAL) when a call
 * failed and every device was brought back to a known state.
 */
@Command(name = "rehearse", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Rehearse the downtime of a live migration across vDPA devices and show where the time goes.",
                "DEV = vdpa device name or /dev/vhost-vdpa-N; without DEV every vDPA device bound to vhost_vdpa",
                "(hardware first). Each device is its own destination (reset in between) unless --dest/--split.",
                "On the fake backend every figure is simulated."},
        footerHeading = "%nExamples:%n",
        footer = {"  vdpactl rehearse",
                "  vdpactl rehearse --strategy serial --iterations 20 --report downtime.html",
                "  vdpactl rehearse --devices 4 --memory 256G --regions 1G --premap",
                "  vdpactl rehearse --compare mlx5-pre612,mlx5-612"})
public final class RehearseCommand implements Callable<Integer> {
    @Mixin
    CommandContext context;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "DEV", arity = "0..*", description = "Devices to rehearse on (sources).")
    List<String> devices = new ArrayList<>();

    @Option(names = "--devices", paramLabel = "N", description = "Use the first N devices (with --compare: N simulated devices, default 4).")
    Integer count;

    @Option(names = "--dest", paramLabel = "DEV", split = ",",
            description = "Separate destination devices, one per source (comma-separated).")
    List<String> destinations = new ArrayList<>();

    @Option(names = "--split", description = "Use the first half of the devices as sources, the second half as destinations.")
    boolean split;

    @Option(names = "--strategy", completionCandidates = CompletionValues.Strategies.class, paramLabel = "serial|parallel|pipelined|svq", defaultValue = "parallel",
            description = "serial: one device after another (what QEMU does); parallel: all devices per phase with a barrier;"
                    + " pipelined: each device through its phases without waiting; svq: one device after another, each"
                    + " destination started on shadow virtqueues (QEMU's SVQ migration path; with --window in-place the"
                    + " switch to SVQ) (default: ${DEFAULT-VALUE}).")
    String strategy;

    @Option(names = "--premap", description = "Map the destination memory before the window (needs IOTLB_PERSIST when a device is its own destination).")
    boolean premap;

    @Option(names = "--window", completionCandidates = CompletionValues.Windows.class, paramLabel = "migration|in-place", defaultValue = "migration",
            description = "Where the downtime starts and ends for a device that is its own destination: migration "
                    + "(default: its reset is the destination's preparation, shown but not counted) or in-place "
                    + "(stopped and restarted in place, reset inside the window: the window of earlier versions).")
    String window;

    @Option(names = "--stop-and-copy", description = "Rehearse only the source side of stop-and-copy: suspend, save state, unmap.")
    boolean stopAndCopy;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "1", description = "Windows to rehearse (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--queue-pairs", paramLabel = "N",
            description = "Queue pairs of net devices, set through the control queue (default: all the device offers).")
    Integer queuePairs;

    @Mixin
    MemoryOptions memory;

    @Option(names = "--report", paramLabel = "FILE.html", description = "Write a self-contained HTML report (timeline and histograms).")
    Path report;

    @Option(names = "--report-details",
            description = "Keep what is local to this machine in --report and --json: the fake's state file and full file paths"
                    + " (default: left out, reports get shared).")
    boolean reportDetails;

    @Option(names = "--compare", paramLabel = "PRESET,PRESET", completionCandidates = CompletionValues.PresetPairs.class,
            description = "Fake only: run the upstream configurations and this rehearsal on two mlx5 latency presets"
                    + " (e.g. mlx5-pre612,mlx5-612) and print before/after with reductions.")
    String compare;

    @Override
    public Integer call() {
        CliContext ctx = context.get();
        Strategy how = Strategy.parse(strategy);
        GuestMemoryLayout layout = memory.layout();
        if (queuePairs != null && queuePairs < 1) {
            throw new IllegalArgumentException("--queue-pairs must be 1 or more (or omitted: all the device offers), got " + queuePairs);
        }
        if (stopAndCopy) {
            refuseWhatStopAndCopyIgnores(how);
        }
        if (compare != null) {
            return compare(ctx, how, layout);
        }
        if (split && !destinations.isEmpty()) {
            throw new IllegalArgumentException("--split takes the destinations from the devices, --dest names them: give one of them");
        }
        if (report != null) {
            OutputFiles.refuseInputs(ctx, "--report", report, Arrays.asList(memory.layoutFile()));
        }
        ReportFile reportFile = report == null ? null : ReportFile.checked(report);
        List<DeviceTarget> selected = DeviceSelection.select(ctx.syscalls(), devices, count);
        List<DeviceTarget> sources = selected;
        List<DeviceTarget> dests = null;
        if (!destinations.isEmpty()) {
            dests = new ArrayList<>();
            for (String d : destinations) {
                dests.add(DeviceSelection.resolve(ctx.syscalls(), d));
            }
        } else if (split) {
            if (selected.size() < 2 || selected.size() % 2 != 0) {
                throw new IllegalArgumentException("--split needs an even number of devices, got " + selected.size());
            }
            sources = selected.subList(0, selected.size() / 2);
            dests = selected.subList(selected.size() / 2, selected.size());
        }
        refuseFaultRulesThatCannotFire(ctx, sources, dests);
        List<String> notes = new ArrayList<>();
        if (!ctx.simulated()) {
            HostMemoryBudget.Reduced r = HostMemoryBudget.fit(ctx.syscalls(), layout);
            layout = r.layout();
            r.note().ifPresent(notes::add);
        }
        RehearsalPlan plan = plan(sources, dests, how, layout).build();
        PremapPreflight.refusal(ctx.syscalls(), plan).ifPresent(why -> {
            throw new CliFailure(ExitCode.NOT_SUPPORTED, why);
        });
        // before any device is touched: enough fds for every device, RLIMIT_MEMLOCK raised for drivers that pin
        ctx.backend().processLimits().ifPresent(l -> ResourcePreflight.prepare(l,
                plan.sameDevices() ? plan.sources().size() : 2 * plan.sources().size()));
        Set<String> presets = presets(ctx, plan);
        RunInfo info = new RunInfo(ctx.simulated(), backendLabel(ctx, plan, reportDetails), ctx.clock().isVirtual() ? "virtual" : "real",
                ShareableCommandLine.of(spec, reportDetails), ctx.backendFields(List.copyOf(presets)));
        try (StopSignals stop = StopSignals.install()) {
            RehearsalResult result;
            try {
                result = new Rehearsal(ctx.syscalls(), ctx.clock()).listener(listener(ctx)).stopWhen(stop::requested).run(plan)
                        .withNotes(notes);
            } catch (MissingBackendFeaturesException e) {
                throw CliFailure.from(e, e.getMessage());
            }
            RehearsalResult done = result;
            ctx.printDocument(JsonDocument.REHEARSAL, () -> RehearsalJson.of(done, info), out -> out.print(HolderUsers.inText(RehearsalText.render(done, info))));
            if (reportFile != null) {
                reportFile.write(HtmlReport.render(result, info));
                ctx.err().println("vdpactl: report written to " + report);
                ctx.err().flush();
            }
            if (result.interrupted()) {
                ctx.err().println("vdpactl: interrupted by " + stop.signalName() + (result.iterationsRun() >= iterations
                        ? ": it came during the last window, which ran to its end: " + (iterations == 1 ? "its one iteration ran"
                                : "all " + iterations + " iterations ran")
                        : ": stopped at a safe point after " + result.iterationsRun() + " of " + iterations + " iterations")
                        + "; every device is in the state reported");
                ctx.err().flush();
                return ExitCode.INTERRUPTED.code();
            }
            return (result.completed() ? ExitCode.OK : ExitCode.PARTIAL).code();
        }
    }

    /** The progress line, and a debug line once every device is up (where a signal starts to stop the rehearsal gracefully). */
    private RehearsalListener listener(CliContext ctx) {
        RehearsalListener progress = ProgressLine.forTerminal(ctx.err(), ctx.simulated(), iterations);
        return new RehearsalListener() {
            @Override
            public void setUpDone(int devices) {
                LoggerFactory.getLogger(RehearseCommand.class).debug("set-up done on {} devices; SIGINT or SIGTERM now stops the rehearsal at the next safe point", devices);
                progress.setUpDone(devices);
            }

            @Override
            public void windowDone(int index) {
                progress.windowDone(index);
            }

            @Override
            public void iterationDone(int index, int total, Timeline timeline) {
                progress.iterationDone(index, total, timeline);
            }

            @Override
            public void beforeClose(List<DeviceReport> reports) {
                progress.beforeClose(reports);
            }
        };
    }

    /** A --fake-faults rule that names none of the rehearsed devices would never fire: a typo, not a quiet pass. */
    private static void refuseFaultRulesThatCannotFire(CliContext ctx, List<DeviceTarget> sources, List<DeviceTarget> dests) {
        Optional<FakeKernelControl> fake = ctx.backend().fakeKernel();
        if (fake.isEmpty()) {
            return;
        }
        Set<String> names = new LinkedHashSet<>();
        sources.forEach(t -> names.add(t.name()));
        if (dests != null) {
            dests.forEach(t -> names.add(t.name()));
        }
        List<String> idle = fake.get().faultRulesMatchingNone(names);
        if (!idle.isEmpty()) {
            throw new IllegalArgumentException("--fake-faults: " + String.join(", ", idle) + " matches none of the rehearsed devices ("
                    + String.join(", ", names) + ") and could never fire (nothing was done)");
        }
    }

    /**
     * --stop-and-copy rehearses the source side only (suspend, save state, unmap): an option that shapes the
     * destination would be accepted and do nothing, and the run would look like it answered a question it did not.
     */
    private void refuseWhatStopAndCopyIgnores(Strategy how) {
        String ignored = how == Strategy.SVQ ? "--strategy svq (it starts the destination on shadow virtqueues; the source side is"
                + " --strategy serial's)"
                : premap ? "--premap (it maps the destination's memory ahead)"
                : spec.commandLine().getParseResult().hasMatchedOption("--window")
                        ? "--window (it says where a device's own restart is counted)" : null;
        if (ignored != null) {
            throw new IllegalArgumentException("--stop-and-copy rehearses only the source side (suspend, save state, unmap), so "
                    + ignored + " would have no effect: drop one of them");
        }
    }

    private RehearsalPlan.Builder plan(List<DeviceTarget> sources, List<DeviceTarget> dests, Strategy how, GuestMemoryLayout layout) {
        RehearsalPlan.Builder b = RehearsalPlan.builder(sources).strategy(how).premap(premap).iterations(iterations)
                .queuePairs(queuePairs == null ? 0 : queuePairs).memory(layout).window(WindowMode.parse(window));
        if (dests != null) {
            b.destinations(dests);
        }
        if (stopAndCopy) {
            b.phases(EnumSet.of(Phase.SUSPEND, Phase.SAVE_STATE, Phase.UNMAP));
        }
        return b;
    }

    private int compare(CliContext ctx, Strategy how, GuestMemoryLayout layout) {
        if (!devices.isEmpty() || !destinations.isEmpty() || split) {
            throw new IllegalArgumentException("--compare runs on simulated devices: give --devices N instead of DEV arguments");
        }
        if (ctx.requestedBackend() == BackendKind.KERNEL) {
            throw new IllegalArgumentException("--compare needs the fake kernel's latency presets; it cannot run with --backend kernel");
        }
        if (report != null) {
            throw new IllegalArgumentException("--compare prints a before/after table and writes no HTML report; drop --report"
                    + " (or run the rehearsal without --compare to get one)");
        }
        if (ctx.fakeFaults().isPresent()) {
            throw new IllegalArgumentException("--compare runs its own simulated devices without injected faults; drop --fake-faults");
        }
        String[] presets = PresetComparison.parsePresets(compare);
        int n = count == null ? UpstreamScenarios.LM_DEVICES : count;
        PresetComparison.Result r = PresetComparison.run(presets[0], presets[1], n, d -> plan(d, null, how, layout).build());
        ctx.printDocument(JsonDocument.COMPARE, () -> CompareJson.of(r), out -> out.print(CompareText.render(r)));
        return ExitCode.OK.code();
    }

    /** "fake (state …), preset mlx5-612: the 6.12 kernel profile's mlx5_vdpa" or "kernel". */
    private static String backendLabel(CliContext ctx, RehearsalPlan plan, boolean details) {
        String label = details ? ctx.backend().description() : ctx.backend().shareableDescription();
        Set<String> reasons = new LinkedHashSet<>();
        ctx.backend().fakeKernel().ifPresent(fake -> {
            for (DeviceTarget t : plan.sources()) {
                fake.presetWithReason(t.name()).ifPresent(reasons::add);
            }
        });
        return reasons.isEmpty() ? label : label + ", preset " + String.join("; ", reasons);
    }

    /** The fake's latency presets of the rehearsed devices, in plan order (none on the kernel). */
    private static Set<String> presets(CliContext ctx, RehearsalPlan plan) {
        Set<String> presets = new LinkedHashSet<>();
        ctx.backend().fakeKernel().ifPresent(fake -> {
            for (DeviceTarget t : plan.sources()) {
                fake.preset(t.name()).ifPresent(presets::add);
            }
        });
        return presets;
    }
}
