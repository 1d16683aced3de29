package org.vdpactl.cli.migrate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.vdpactl.cli.CliContext;
import org.vdpactl.cli.CliFailure;
import org.vdpactl.cli.CommandContext;
import org.vdpactl.cli.ExitCode;
import org.vdpactl.cli.ReadOnlyCommand;
import org.vdpactl.cli.Sizes;
import org.vdpactl.report.JsonDocument;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vdpactl migrate check}: per device pair, blockers, the path QEMU takes and warnings; exit 10 when any pair is blocked. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Check a live migration of a VM's vDPA NICs from a source host to a destination host.",
                       "Each side is this host (live, the default) or a document `vdpactl migrate facts --json` wrote on it.",
                       "Per device pair: blockers, the path QEMU takes (SVQ, SUSPEND or reset, control queue, rollback, the",
                       "rehearsal of that path) and warnings, each line with what to do. Exit 0: every pair migrates;",
                       "10: a pair is blocked."})
final class CheckCommand implements Callable<Integer>, ReadOnlyCommand {
    static final String LIVE = "live";

    @Mixin
    CommandContext context;

    @Parameters(paramLabel = "DEV", arity = "0..*", description = "Source devices to check (default: every device of the source).")
    List<String> devices = new ArrayList<>();

    @Option(names = "--source", paramLabel = "FILE|live", defaultValue = LIVE, description = "The source's facts (default: this host).")
    String source;

    @Option(names = "--dest", paramLabel = "FILE|live", defaultValue = LIVE, description = "The destination's facts (default: this host).")
    String dest;

    @Option(names = "--pair", paramLabel = "SRC:DEST", split = ",",
            description = "Pair source device SRC with destination device DEST (default: the device of the same name).")
    List<String> pairs = new ArrayList<>();

    @Option(names = "--x-svq", description = "The VM runs with -netdev vhost-vdpa,...,x-svq=on.")
    boolean xsvq;

    @Option(names = "--memory", paramLabel = "SIZE", defaultValue = "4G", description = "The VM's memory (default ${DEFAULT-VALUE}).")
    String memory;

    @Option(names = "--rehearse", description = {"Rehearse each pair's path and show its downtime on the path and the warnings it",
            "costs: on this host's devices when both sides are live, else on the fake's models of both sides' devices",
            "as the facts documents describe them (simulated, and said so)."})
    boolean rehearse;

    @Option(names = "--source-qemu", paramLabel = "VERSION", description = "The source's QEMU version (overrides the facts).")
    String sourceQemu;

    @Option(names = "--dest-qemu", paramLabel = "VERSION", description = "The destination's QEMU version (overrides the facts).")
    String destQemu;

    @Override
    public Integer call() {
        CliContext ctx = context.get();
        long memoryBytes = Sizes.parse(memory, "--memory");
        Map<String, String> explicit = pairs();
        MigrationFacts src = qemu(facts(ctx, source, "--source"), sourceQemu);
        MigrationFacts dst = source.equals(LIVE) && dest.equals(LIVE) ? src : qemu(facts(ctx, dest, "--dest"), destQemu);
        if (dest.equals(LIVE) && source.equals(LIVE) && destQemu != null) {
            dst = qemu(src, destQemu);
        }
        List<MigrationFacts.DeviceFacts> chosen = new ArrayList<>();
        List<String> names = !devices.isEmpty() ? devices : !explicit.isEmpty() ? new ArrayList<>(explicit.keySet())
                : src.devices().stream().map(MigrationFacts.DeviceFacts::name).toList();
        for (String n : names) {
            chosen.add(src.device(n).orElseThrow(() -> new CliFailure(ExitCode.NOT_FOUND, "the source host " + src.host()
                    + " has no vDPA device " + n)));
        }
        if (chosen.isEmpty()) {
            throw new CliFailure(ExitCode.NOT_FOUND, "the source host " + src.host() + " has no vDPA device to check");
        }
        PairCheck check = new PairCheck(src, dst, xsvq, memoryBytes);
        List<PairReport> reports = new ArrayList<>();
        String verdict = PairReport.COMPATIBLE;
        PathRehearsal rehearsal = rehearse ? new PathRehearsal(ctx, source.equals(LIVE), dest.equals(LIVE), memoryBytes, src, dst) : null;
        for (MigrationFacts.DeviceFacts s : chosen) {
            String dstName = explicit.getOrDefault(s.name(), s.name());
            PairReport r = check.check(s, dstName);
            if (rehearsal != null) {
                r = rehearsal.rehearse(r, s, dst.device(dstName).orElse(null));
            }
            reports.add(r);
            verdict = PairReport.worse(verdict, r.verdict());
        }
        boolean blocked = verdict.equals(PairReport.BLOCKED);
        String finalVerdict = verdict;
        MigrationFacts dstFinal = dst;
        ctx.printDocument(JsonDocument.MIGRATE_CHECK, () -> {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("verdict", finalVerdict);
            doc.put("exit", blocked ? ExitCode.BLOCKED.code() : ExitCode.OK.code());
            doc.put("source", side(src, source));
            doc.put("destination", side(dstFinal, dest));
            doc.put("x_svq", xsvq);
            doc.put("memory_bytes", memoryBytes);
            doc.put("pairs", reports);
            return doc;
        }, out -> print(out, src, dstFinal, finalVerdict, blocked, reports));
        if (blocked) {
            long n = reports.stream().filter(r -> r.verdict().equals(PairReport.BLOCKED)).count();
            ctx.err().println("vdpactl: migrate check: " + n + " of " + reports.size() + " device pair(s) blocked (each blocker says what to do)");
        }
        return blocked ? ExitCode.BLOCKED.code() : ExitCode.OK.code();
    }

    private Map<String, String> pairs() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String p : pairs) {
            int colon = p.indexOf(':');
            if (colon <= 0 || colon == p.length() - 1) {
                throw new IllegalArgumentException("--pair takes SRC:DEST, got '" + p + "'");
            }
            out.put(p.substring(0, colon), p.substring(colon + 1));
        }
        return out;
    }

    private static Map<String, Object> side(MigrationFacts f, String from) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("host", f.host());
        m.put("from", from.equals(LIVE) ? LIVE : "file");
        m.put("qemu", f.qemu() == null ? null : f.qemu().version());
        m.put("kernel_profile", f.kernel() == null ? null : f.kernel().profile());
        m.put("backend", f.backend() == null ? null : f.backend().kind());
        return m;
    }

    private static MigrationFacts qemu(MigrationFacts f, String version) {
        if (version == null) {
            return f;
        }
        return new MigrationFacts(f.host(), f.backend(), f.kernel(), new MigrationFacts.Qemu(version, "given"), f.memlock(),
                f.capIpcLock(), f.devices());
    }

    private static MigrationFacts facts(CliContext ctx, String where, String option) {
        if (where.equals(LIVE)) {
            return new FactsCollector(ctx).collect(FactsCommand.hostName(), QemuProbe.probe());
        }
        return read(Path.of(where), option);
    }

    /** A facts document: one line and exit 3 when missing, exit 2 when it is no facts document of this version. */
    static MigrationFacts read(Path file, String option) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw CliFailure.from(e, option + " " + file + ": cannot read it (" + (e instanceof NoSuchFileException ? "no such file"
                    : e.getClass().getSimpleName()) + ")");
        }
        ObjectMapper m = JsonDocument.mapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        JsonNode node;
        MigrationFacts f;
        try {
            node = m.readTree(text);
            f = m.treeToValue(node, MigrationFacts.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw CliFailure.from(e, option + " " + file + ": not valid facts JSON (" + firstLine(e) + ")");
        }
        if (node == null || !node.isObject() || !JsonDocument.MIGRATE_FACTS.schemaName().equals(node.path("schema").asText())) {
            throw new CliFailure(ExitCode.USAGE, option + " " + file + ": not a " + JsonDocument.MIGRATE_FACTS.schemaName()
                    + " document (write one with `vdpactl migrate facts --json`)");
        }
        if (node.path("schema_version").asInt(-1) != JsonDocument.VERSION) {
            throw new CliFailure(ExitCode.USAGE, option + " " + file + ": schema_version " + node.path("schema_version")
                    + ", this vdpactl reads " + JsonDocument.VERSION);
        }
        if (f.host() == null || f.devices().stream().anyMatch(d -> d.name() == null || d.type() == null || d.features() == null)) {
            throw new CliFailure(ExitCode.USAGE, option + " " + file + ": a host or device lacks its name, type or features");
        }
        return f;
    }

    private static String firstLine(Exception e) {
        String msg = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        return msg == null ? e.getClass().getSimpleName() : msg.lines().findFirst().orElse("");
    }

    private static void print(PrintWriter out, MigrationFacts src, MigrationFacts dst, String verdict, boolean blocked,
                              List<PairReport> reports) {
        out.println("migrate " + src.host() + " → " + dst.host() + ": " + verdict.toUpperCase(Locale.ROOT)
                + " (exit " + (blocked ? ExitCode.BLOCKED.code() : 0) + ")");
        for (PairReport r : reports) {
            out.println();
            out.println(r.source() + " → " + r.destination() + ": " + r.verdict());
            for (PairReport.Finding f : r.blockers()) {
                finding(out, "BLOCKER", f);
            }
            if (r.path() != null) {
                PairReport.MigrationPath p = r.path();
                out.println("  path (QEMU " + p.qemuSource() + " → " + p.qemuDestination() + "): SVQ " + p.svq() + ", stop " + p.stop()
                        + ", CVQ " + p.cvq() + ", rollback " + (p.resumeForRollback() ? "RESUME" : "restart"));
                p.explanation().forEach(l -> out.println("    " + l));
                p.rehearsal().forEach(x -> out.println("    rehearse " + x.rehearses() + ": " + x.command()
                        + (x.downtimeMs() != null ? " → downtime " + x.downtimeMs() + " ms" + (Boolean.TRUE.equals(x.simulated())
                        ? " (simulated)" : " (measured)") : x.note() != null ? " (not rehearsed: " + x.note() + ")" : "")));
            }
            for (PairReport.Finding f : r.warnings()) {
                finding(out, "WARNING", f);
            }
        }
    }

    private static void finding(PrintWriter out, String kind, PairReport.Finding f) {
        out.println("  " + kind + " " + f.id() + ": " + f.message());
        out.println("    do: " + f.action());
        if (f.costMs() != null) {
            out.println("    cost: " + f.costMs() + " ms (" + f.costFrom() + ")");
        }
        out.println("    rule: " + f.source());
    }
}
