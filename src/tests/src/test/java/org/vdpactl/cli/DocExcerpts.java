package org.vdpactl.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import org.vdpactl.fake.mlx5.Mlx5Params;
import org.vdpactl.fake.mlx5.Mlx5Prior;
import org.vdpactl.sim.HeldOutPrediction;
import org.vdpactl.sim.PresetComparison;
import org.vdpactl.sim.UpstreamScenarios;
import org.vdpactl.sim.UpstreamScenarios.VmmResiduals;

/**
 * Generators of the documentation blocks that come from running the fake (simulated, virtual clock:
 * the same output on every machine): excerpts of {@code rehearse --compare mlx5-pre612,mlx5-612} and
 * the held-out prediction's table. {@code GeneratedDocBlocksTest} compares each marked block with
 * what these produce, and rewrites the blocks with {@code -Dvdpactl.docs.write=true}.
 */
final class DocExcerpts {
    private static String compareOutput;

    private DocExcerpts() {
    }

    /** The block {@code id} without its markers, or null when no such generator exists. */
    static String block(String id) {
        return switch (id) {
            case "compare-upstream" -> between(compare(), "scenario ", "\nFirmware commands per call");
            case "compare-phases" -> between(compare(), "phase ", null);
            case "held-out-interval" -> heldOutTable();
            case "priors" -> priorsTable();
            case "fitted" -> fittedTable();
            case "published" -> publishedTable();
            default -> null;
        };
    }

    /** {@code vdpactl --backend fake rehearse --compare mlx5-pre612,mlx5-612}, run once per JVM. */
    private static synchronized String compare() {
        if (compareOutput == null) {
            try {
                Path dir = Files.createTempDirectory("vdpactl-doc");
                try {
                    CliRun r = RehearseCommandTest.run("--backend", "fake", "--fake-state", dir.resolve("state.json").toString(),
                            "rehearse", "--compare", "mlx5-pre612,mlx5-612");
                    if (r.exitCode() != 0) {
                        throw new IllegalStateException("rehearse --compare exited " + r.exitCode() + ": " + r.err());
                    }
                    compareOutput = r.out();
                } finally {
                    try (var s = Files.walk(dir)) {
                        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return compareOutput;
    }

    /** From the line starting with {@code start} up to (not including) {@code end}, or to the end. */
    private static String between(String text, String start, String end) {
        int i = text.startsWith(start) ? 0 : text.indexOf("\n" + start) + 1;
        if (i <= 0 && !text.startsWith(start)) {
            throw new IllegalStateException("no line starting with '" + start + "' in:\n" + text);
        }
        int j = end == null ? text.length() : text.indexOf(end, i);
        return "```\n" + text.substring(i, j < 0 ? text.length() : j).stripTrailing() + "\n```";
    }

    private static String heldOutTable() {
        HeldOutPrediction p = HeldOutPrediction.LM_DOWNTIME_2;
        StringBuilder sb = new StringBuilder("| LM downtime #2 (predicted, simulated) | bounds over the undetermined priors' whole range, ms | fits / MKEY concurrencies admitting none |\n")
                .append("|---|---|---|\n");
        sb.append(row("`mlx5-pre612` total", p.beforeMs(), p));
        sb.append(row("`mlx5-612` total", p.afterMs(), p));
        sb.append(row("change before − after", p.changeMs(), p));
        return sb.toString().stripTrailing();
    }

    private static String row(String what, HeldOutPrediction.Range r, HeldOutPrediction p) {
        return String.format(Locale.ROOT, "| %s | %.1f .. %.1f | %d / %d |%n", what, r.low(), r.high(), p.fits(), p.rejected());
    }

    private static String priorsTable() {
        StringBuilder sb = new StringBuilder("| prior | parameters | range | point | source |\n|---|---|---|---|---|\n");
        for (Mlx5Prior x : Mlx5Prior.SAMPLED) {
            String values = number(x.low()) + " .. " + number(x.high());
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", x.name(), params(x), values, number(x.point()),
                    x.source()));
        }
        for (Mlx5Prior x : Mlx5Prior.FIXED) {
            sb.append(String.format(Locale.ROOT, "| %s | %s | no | the spec's §4.2 values | %s |%n", x.name(), params(x), x.source()));
        }
        return sb.toString().stripTrailing();
    }

    /** Each fitted parameter (group) and the calibration target it is paired with (Mlx5Calibration.fit). */
    private static final List<Map.Entry<List<String>, String>> FITTED = List.of(
            Map.entry(List.of("modifyRdyMs"), "resume ≤6.10"),
            Map.entry(List.of("fwConcurrencyObj"), "resume 6.12 (an integer: the nearest it can come)"),
            Map.entry(List.of("modifySuspendMs"), "suspend 6.12"),
            Map.entry(List.of("notifierUnregisterMs"), "suspend ≤6.10"),
            Map.entry(List.of("modifyFieldsFromInitMs"), "VQ creation v6.11"),
            Map.entry(List.of("createCqMs", "createQpMs", "qpStateChangeMs", "createCountersMs", "createUmemMs", "createVqMs"),
                    "VQ creation ≤6.10 (one common scale on the priors' split)"),
            Map.entry(List.of("hostUnmapPerMttNs", "destroyMkeyPerMttNs"),
                    "MR deletion = the deletion-share prior of MR creation (one common scale on the split)"),
            Map.entry(List.of("issuePerBlockUs", "fwPerBlockUs", "hostMapPerMttNs"),
                    "LM #1 before − after (one common scale; the residual cancels in the difference)"));

    private static String fittedTable() {
        StringBuilder sb = new StringBuilder("| fitted (Mlx5Params.DEFAULT) | calibration target |\n|---|---|\n");
        for (Map.Entry<List<String>, String> e : FITTED) {
            sb.append("| ").append(String.join(", ", e.getKey().stream()
                    .map(n -> "`" + n + "` = " + number(Mlx5Params.DEFAULT.get(n))).toList())).append(" | ").append(e.getValue()).append(" |\n");
        }
        sb.append("| `vmmResidual1` = ").append(number(VmmResiduals.FITTED.window1Ms()))
                .append(" ms | LM #1: what the driver model leaves of both calibration figures (least squares) |");
        return sb.toString();
    }

    /** The published figures the comparison scores against, each with its cover letter and date. */
    private static String publishedTable() {
        StringBuilder sb = new StringBuilder("| configuration | published (ms) | use | source |\n|---|---|---|---|\n");
        for (PresetComparison.Row r : PresetComparison.upstream(UpstreamScenarios.PRE612, UpstreamScenarios.V612)) {
            PresetComparison.Published p = r.published();
            sb.append("| ").append(r.scenario()).append(r.afterPreset().equals(UpstreamScenarios.V612) ? "" : " [after: `"
                    + r.afterPreset() + "`]").append(" | ").append(number(p.before())).append(" → ").append(number(p.after()))
                    .append(" | ").append(p.label()).append(" | ").append(p.source()).append(" |\n");
        }
        return sb.toString().stripTrailing();
    }

    private static String number(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    private static String params(Mlx5Prior x) {
        return x.params().isEmpty() ? "(the fit's target)" : String.join(", ", x.params().stream().map(n -> "`" + n + "`").toList());
    }
}
