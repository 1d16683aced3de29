package org.vdpactl.cli.rehearse;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.vdpactl.report.Durations;
import org.vdpactl.report.RehearsalText;
import org.vdpactl.report.TextTable;

/**
 * The before/after tables of {@code --compare}, shaped like the upstream cover letters: figure
 * before, after, the reduction, and the published figures with the deviation from them.
 */
public final class CompareText {
    private CompareText() {
    }

    public static String render(PresetComparison.Result r) {
        StringBuilder sb = new StringBuilder();
        sb.append("Comparing latency presets ").append(r.before()).append(" (before) and ").append(r.after())
                .append(" (after) -- SIMULATED on the fake kernel's mlx5 model, virtual clock\n\n");
        sb.append("Upstream configurations (mlx5-model.md 4.5):\n");
        TextTable t = new TextTable(List.of("scenario", ">before ms", ">after ms", ">reduction", ">published ms", ">deviation"));
        List<String> notes = new ArrayList<>();
        for (PresetComparison.Row row : r.upstream()) {
            String pub = row.published() == null ? "-" : trim(row.published().before()) + " -> " + trim(row.published().after());
            String dev = row.published() == null ? "-" : deviation(row.before().totalMs(), row.published().before()) + " / "
                    + deviation(row.after().totalMs(), row.published().after());
            boolean residual = row.before().residualMs() != 0 || row.after().residualMs() != 0;
            String name = row.scenario() + (row.afterPreset().equals(r.after()) ? "" : " [after: " + row.afterPreset() + "]");
            if (residual) {
                t.row(name, "", "", "", "", "");
                t.row("  driver and firmware (simulated)", Durations.ms(row.before().driverMs()), Durations.ms(row.after().driverMs()),
                        reduction(row.before().driverMs(), row.after().driverMs()), "", "");
                t.row("  VMM residual (calibrated, not measured)", Durations.ms(row.before().residualMs()),
                        Durations.ms(row.after().residualMs()), "", "", "");
                t.row("  total", Durations.ms(row.before().totalMs()), Durations.ms(row.after().totalMs()),
                        reduction(row.before().totalMs(), row.after().totalMs()), pub, dev);
            } else {
                t.row(name, Durations.ms(row.before().totalMs()), Durations.ms(row.after().totalMs()),
                        reduction(row.before().totalMs(), row.after().totalMs()), pub, dev);
            }
            if (row.note() != null) {
                notes.add(row.scenario() + ": " + row.note());
            }
        }
        sb.append(t.render());
        sb.append("\nFirmware commands per call (simulated):\n");
        TextTable c = new TextTable(List.of("scenario", r.before(), r.after()));
        for (PresetComparison.Row row : r.upstream()) {
            c.row(row.scenario(), row.before().commands(), row.after().commands());
        }
        sb.append(c.render());
        sb.append("\nThe VMM residuals are the non-driver part of the published LM windows, fitted once on the mlx5-612 row\n")
                .append("(mlx5-model.md 4.5.6); every other figure is what the rehearsal measured on the modelled devices.\n");
        for (String n : notes) {
            sb.append("Note: ").append(n).append('\n');
        }
        sb.append("\nYour rehearsal on both presets: ").append(RehearsalText.describePlan(r.plan()).replace("\n", "\n  ")).append('\n');
        TextTable p = new TextTable(List.of("phase", ">" + r.before() + " ms", ">" + r.after() + " ms", ">reduction"));
        for (PresetComparison.PhaseRow row : r.phases()) {
            p.row(row.phase() == null ? "downtime (simulated)" : row.phase().label(), Durations.ms(row.beforeMs()),
                    Durations.ms(row.afterMs()), reduction(row.beforeMs(), row.afterMs()));
        }
        sb.append(p.render());
        return sb.toString();
    }

    /** "14.5x (-93%)" when the after-figure is smaller, "+454% (slower)" when it is larger. */
    static String reduction(double before, double after) {
        if (after <= 0 || before <= 0) {
            return "-";
        }
        double change = (after - before) / before * 100;
        if (after > before) {
            return String.format(Locale.ROOT, "%+.0f%% (slower)", change);
        }
        return String.format(Locale.ROOT, "%.1fx (%+.0f%%)", before / after, change);
    }

    static String deviation(double simulated, double published) {
        return String.format(Locale.ROOT, "%+.1f%%", (simulated - published) / published * 100);
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
