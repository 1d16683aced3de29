package org.vdpactl.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.vdpactl.cli.host.BenchLimits;
import org.vdpactl.cli.rehearse.MemoryOptions;
import org.vdpactl.fake.ResourceLimit;
import org.vdpactl.orchestra.WindowMode;
import org.vdpactl.report.BackendFields;
import org.vdpactl.report.JsonDocument;
import org.vdpactl.report.TextTable;
import org.vdpactl.sim.OrchestrationBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code vdpactl bench ...}: benchmarks (figures, not tests). */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks of vdpactl itself; they print figures and assert nothing.",
        subcommands = {BenchCommand.Orchestration.class})
public final class BenchCommand extends CommandGroup {

    /** {@code vdpactl bench orchestration}: the orchestrator's wall time against the model's critical path. */
    @Command(name = "orchestration", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Measure the rehearsal's own overhead against the model's critical path.",
                    "Rehearses 1, 4, 16, 64 and 256 simulated mlx5 devices x 32 VQs on the fake kernel with the REAL clock,",
                    "parallel, pipelined and serial, and compares the downtime with the model's critical path (a virtual-clock run).",
                    "Real-clock figures: median, minimum and maximum over the repeated runs.",
                    "Goals: parallel <= 1.05 x critical path; serial / parallel >= 0.9 x devices."})
    static final class Orchestration implements Callable<Integer> {
        @Mixin
        CommandContext context;

        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Option(names = "--sizes", paramLabel = "N,N,...", split = ",", defaultValue = "1,4,16,64,256",
                description = "Device counts (default: ${DEFAULT-VALUE}).")
        List<Integer> sizes = new ArrayList<>();

        @Option(names = "--queue-pairs", paramLabel = "N", defaultValue = "16", description = "Queue pairs per device (default: ${DEFAULT-VALUE}).")
        int pairs;

        @Option(names = "--preset", paramLabel = "PRESET", completionCandidates = CompletionValues.Presets.class, defaultValue = "mlx5-612", description = "mlx5 latency preset (default: ${DEFAULT-VALUE}).")
        String preset;

        @Option(names = "--repeat", paramLabel = "N", defaultValue = "3",
                description = "Real-clock runs of the parallel and the pipelined strategy per size; the median is shown "
                        + "with the minimum and maximum (default: ${DEFAULT-VALUE}).")
        int repeat;

        @Option(names = "--serial-repeat", paramLabel = "N", defaultValue = "1",
                description = "Real-clock runs of the serial strategy per size; each costs the device count times a "
                        + "parallel run (default: ${DEFAULT-VALUE}).")
        int serialRepeat;

        @Option(names = "--window", paramLabel = "MODE", completionCandidates = CompletionValues.Windows.class, defaultValue = "in-place",
                description = {"The downtime window (default: ${DEFAULT-VALUE}): in-place includes the reset between the "
                        + "source and the destination role (a device restarted in place); migration leaves it out as the "
                        + "destination's preparation (rehearse's default), so the host CPU of the other phases weighs more."})
        String window;

        @Mixin
        MemoryOptions memory;

        /**
         * The fake's options that would change what is measured, which the bench cannot honour: it builds its own fake
         * kernels, devices and real clock. (--fake-state is let through: the bench neither reads nor writes a state, and
         * wrappers pass it to keep every command off the user's own.)
         */
        private static final List<String> NO_EFFECT = List.of("--fake-faults", "--fake-kernel", "--fake-clock");

        @Override
        public Integer call() {
            List<String> ignored = GivenOptions.given(spec, NO_EFFECT);
            if (!ignored.isEmpty()) {
                throw new IllegalArgumentException(String.join(", ", ignored) + (ignored.size() == 1 ? " has" : " have")
                        + " no effect on bench orchestration, which builds its own fake kernels and simulated devices on the"
                        + " real clock: drop " + (ignored.size() == 1 ? "it" : "them") + " (rehearse takes them)");
            }
            CliContext ctx = context.get();
            ResourceLimit nofile = BenchLimits.inheritedNofile(sizes);
            // an unknown mode is an IllegalArgumentException: one line on stderr, exit 2 (USAGE)
            List<OrchestrationBench.Row> rows = OrchestrationBench.run(sizes, pairs, preset, memory.layout(),
                    WindowMode.parse(window), repeat,
                    serialRepeat, nofile, line -> {
                ctx.err().println("bench: " + line);
                ctx.err().flush();
            });
            ctx.printDocument(JsonDocument.BENCH, () -> document(rows, preset, ShareableCommandLine.of(spec, false)), out -> out.print(render(rows, preset)));
            return ExitCode.OK.code();
        }
    }

    /**
     * The bench's JSON: what it ran on as fields (always the fake with the real clock and the preset's model:
     * simulated), the command line, and the rows.
     */
    private static Map<String, Object> document(List<OrchestrationBench.Row> rows, String preset, String command) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("simulated", true);
        doc.put("backend", new BackendFields("fake", null, null, List.of(preset)));
        doc.put("preset", preset);
        doc.put("command", command);
        doc.put("rows", rows);
        return doc;
    }

    /** The table of {@code bench orchestration}. */
    static String render(List<OrchestrationBench.Row> rows, String preset) {
        TextTable t = new TextTable(List.of(">devices", ">VQs", ">critical path ms", ">parallel ms", ">min-max ms", ">parallel/cp",
                ">pipelined cp ms", ">pipelined ms", ">pipelined/cp", ">replay ms", ">replay/cp", ">parallel/replay", ">own share",
                ">serial ms", ">serial/parallel", ">CPU us/call",
                ">floor/cp", ">load", "goals"));
        for (OrchestrationBench.Row r : rows) {
            OrchestrationBench.Spread p = r.parallel();
            OrchestrationBench.Spread pl = r.pipelined();
            t.row(String.valueOf(r.devices()), String.valueOf(r.vqs()), fmt(r.criticalPathMs()), fmt(r.parallelMs()),
                    fmt(p.minMs()) + "-" + fmt(p.maxMs()), String.format(Locale.ROOT, "%.3f", r.parallelOverCriticalPath()),
                    fmt(r.pipelinedCriticalPathMs()), pl == null ? "-" : fmt(pl.medianMs()),
                    pl == null ? "-" : String.format(Locale.ROOT, "%.3f", r.pipelinedOverCriticalPath()),
                    r.replay() == null ? "-" : fmt(r.replay().medianMs()), ratio(r.replayOverCriticalPath()),
                    ratio(r.parallelOverReplay()), percent(r.ownShare()), fmt(r.serialMs()),
                    String.format(Locale.ROOT, "%.2f", r.serialOverParallel()),
                    Double.isNaN(r.cpuPerCallUs()) ? "-" : fmt(r.cpuPerCallUs()),
                    Double.isNaN(r.predictedFloorMs()) ? "-" : String.format(Locale.ROOT, "%.3f", r.floorOverCriticalPath()),
                    r.loadBefore() < 0 ? "-" : String.format(Locale.ROOT, "%.1f-%.1f", r.loadBefore(), r.loadAfter()),
                    parallelVerdict(r) + ", " + shareVerdict(r) + ", " + serialVerdict(r));
        }
        String window = rows.isEmpty() ? "" : rows.getFirst().window();
        return "Orchestration benchmark, fake kernel, preset " + preset + ", " + window + " window, real clock (simulated device latencies);\n"
                + "critical path = the same rehearsal on a virtual clock (model only, no overhead); real-clock figures are medians\n"
                + "(min-max: the spread of the parallel runs). CPU us/call: measured process CPU per window call (virtual clock);\n"
                + "floor/cp: the least parallel/cp that CPU allows on this machine's CPUs (predicted); load: 1-min load average.\n"
                + "replay: the model's waits alone on the same lane threads and barrier, no call made (measured): what the\n"
                + "machine adds (replay/cp) and vdpactl's own share of the window (own share = (parallel - replay) / cp).\n"
                + "Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs, Java " + Runtime.version() + ", "
                + System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch") + "\n"
                + "Goals: parallel/cp <= " + OrchestrationBench.PARALLEL_GOAL + " where replay/cp allows it (else the floor is"
                + " named), own share <= " + percent(OrchestrationBench.OWN_SHARE_GOAL) + ", serial/parallel >= "
                + OrchestrationBench.SERIAL_GOAL + " x devices where serial/replay allows it.\n" + t.render();
    }

    /** The parallel goal of one row: judged where the machine's floor (the replay) allows it, else the floor is named. */
    private static String parallelVerdict(OrchestrationBench.Row r) {
        if (!r.parallelGoalApplies()) {
            return "parallel: floor " + ratio(r.replayOverCriticalPath());
        }
        return r.parallelGoalMet() ? "parallel ok" : "parallel MISSED";
    }

    /** The serial goal of one row: judged where the replay allows it, else named as out of the floor's reach. */
    private static String serialVerdict(OrchestrationBench.Row r) {
        if (!r.serialGoalApplies()) {
            return "serial: floor";
        }
        return r.serialGoalMet() ? "serial ok" : "serial MISSED";
    }

    private static String shareVerdict(OrchestrationBench.Row r) {
        if (Double.isNaN(r.ownShare())) {
            return "share -";
        }
        return r.ownShareGoalMet() ? "share ok" : "share MISSED";
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }

    private static String ratio(double r) {
        return Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.3f", r);
    }

    private static String fmt(double ms) {
        return String.format(Locale.ROOT, "%.2f", ms);
    }
}
