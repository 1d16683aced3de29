package org.vdpactl.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.vdpactl.orchestra.DeviceReport;
import org.vdpactl.orchestra.Percentiles;
import org.vdpactl.orchestra.Phase;
import org.vdpactl.orchestra.RehearsalFailure;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Timeline;

/**
 * The {@code --report FILE.html} of a rehearsal: one self-contained file (inline CSS and SVG, no
 * script, no external resource) that opens in any browser without network access. It holds the
 * plan, the SVG timeline of the median (or failed) iteration, the per-phase table, histograms of
 * the downtime and of each phase over the iterations, and the devices' final states. The markup
 * is well-formed XML as well as HTML.
 */
public final class HtmlReport {
    private static final String CSS = Html.BASE_CSS + """
            .simulated { background: #fff3e0; border: 1px solid #fb8c00; }
            .failure { background: #ffebee; border: 1px solid #d50000; padding: 8px 12px; white-space: pre-wrap; }
            .dev { font-size: 13px; } .tick { font-size: 11px; fill: #424242; } .gap { font-size: 12px; font-weight: bold; }
            .count { font-size: 9px; fill: #424242; } .htitle { font-size: 13px; font-weight: bold; }
            figure.timeline { margin: 8px 0; max-width: 1200px; }
            svg.timeline.narrow { display: none; }
            @media (max-width: 600px) { svg.timeline.wide { display: none; } svg.timeline.narrow { display: block; } }
            .legend { font-size: 13px; line-height: 1.9; }
            .timeline-note { font-size: 13px; margin: 4px 0 0; max-width: 70em; }
            .key { white-space: nowrap; margin-right: 12px; }
            .swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px;
                      border: 1px solid #9e9e9e; }
            .swatch.hatched { background: repeating-linear-gradient(45deg, %s 0 3px, #ffffff 3px 6px); }
            .hists { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%%, 300px), 1fr)); gap: 18px;
                     max-width: 1200px; }
            dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 14px; font-size: 14px; }
            dt { font-weight: bold; } dd { margin: 0; overflow-wrap: anywhere; }
            @media (max-width: 600px) { dl { grid-template-columns: minmax(0, 1fr); } dd { margin-left: 12px; } }
            """.formatted(Phase.RESET.color());

    private HtmlReport() {
    }

    public static String render(RehearsalResult r, RunInfo info) {
        StringBuilder sb = new StringBuilder(64 * 1024);
        sb.append(Html.head("vdpactl rehearsal" + info.simulatedSuffix(), CSS));
        sb.append("<h1>vdpactl downtime rehearsal").append(Html.esc(info.simulatedSuffix())).append("</h1>\n");
        if (info.simulated()) {
            sb.append("<p class=\"banner simulated\">SIMULATED: every figure comes from the fake kernel's latency model (")
                    .append(Html.esc(info.backend())).append(", ").append(Html.esc(info.clock()))
                    .append(" clock), not from hardware.</p>\n");
        } else {
            sb.append("<p class=\"banner measured\">Measured on ").append(Html.esc(info.backend())).append(" (")
                    .append(Html.esc(info.clock())).append(" clock).</p>\n");
        }
        summary(sb, r, info);
        RehearsalFailure f = r.failure();
        if (f != null) {
            sb.append("<h2>Failure</h2>\n<div class=\"failure\">").append(Html.esc(f.summary() + "\n" + f.message()))
                    .append("</div>\n");
        }
        Timeline shown = RehearsalText.representative(r);
        if (shown != null) {
            sb.append("<h2>Timeline").append(Html.esc(timelineHeading(r, shown))).append("</h2>\n");
            sb.append(SvgTimeline.render(shown));
            sb.append("<h2>Phases</h2>\n");
            table(sb, RehearsalText.phaseTable(shown, info));
            sb.append("<p>").append(Html.esc(RehearsalText.criticalPathLine(shown, info))).append("</p>\n");
        }
        if (r.statistics().count() > 0) {
            histograms(sb, r, info);
        }
        sb.append("<h2>Devices at the end</h2>\n");
        table(sb, RehearsalText.deviceTable(r.devices()));
        sb.append("<p>Closing the device nodes afterwards resets the devices in the kernel.</p>\n");
        sb.append("</body>\n</html>\n");
        return sb.toString();
    }

    /**
     * What the timeline shows: the median iteration, or the failed one; "rollback in grey" only when the
     * rollback made calls (a failure on the last call of a window can leave nothing to undo).
     */
    static String timelineHeading(RehearsalResult r, Timeline shown) {
        if (r.failure() == null) {
            return " (median iteration)";
        }
        boolean rollbackCalls = shown.spans().stream().anyMatch(s -> s.phase() == Phase.ROLLBACK);
        return rollbackCalls ? " (the failed iteration, rollback in grey)"
                : " (the failed iteration; the rollback made no call: every device was already in a known state)";
    }

    private static void summary(StringBuilder sb, RehearsalResult r, RunInfo info) {
        sb.append("<dl>\n");
        for (String line : RehearsalText.describePlan(r.plan()).split("\n")) {
            int colon = line.indexOf(": ");
            item(sb, line.substring(0, colon), line.substring(colon + 2));
        }
        item(sb, "Outcome", r.completed() ? "completed" : r.interrupted() ? "interrupted: stopped on request between two windows"
                : "partial: stopped by a failure, every device rolled back");
        Timeline t = RehearsalText.representative(r);
        if (t != null) {
            item(sb, r.failure() == null ? "Downtime" : "Downtime until the failure", Durations.ms(t.downtimeNanos()) + " ms"
                    + info.simulatedSuffix() + " (" + RehearsalText.windowWords(t, "to") + ")");
        }
        if (r.statistics().count() > 1) {
            Percentiles p = r.statistics().downtime();
            item(sb, "Downtime over " + p.count() + " iterations", String.format(Locale.ROOT, "p50 %s, p90 %s, p99 %s, max %s ms",
                    Durations.ms(p.p50()), Durations.ms(p.p90()), Durations.ms(p.p99()), Durations.ms(p.max())));
        }
        item(sb, "Command", info.command());
        for (String note : r.notes()) {
            item(sb, "Note", note);
        }
        if (t != null) {
            RehearsalText.fallbackLines(t).forEach(l -> item(sb, "Fallback", l));
        }
        sb.append("</dl>\n");
    }

    private static void item(StringBuilder sb, String key, String value) {
        sb.append("<dt>").append(Html.esc(key)).append("</dt><dd>").append(Html.esc(value)).append("</dd>\n");
    }

    private static void histograms(StringBuilder sb, RehearsalResult r, RunInfo info) {
        sb.append("<h2>Distributions over ").append(RehearsalText.iterations(r.statistics().count())).append(Html.esc(info.simulatedSuffix()))
                .append("</h2>\n");
        table(sb, RehearsalText.percentileTable(r, info));
        RehearsalText.histogramNote(r).ifPresent(n -> sb.append("<p>").append(Html.esc(n)).append("</p>\n"));
        sb.append("<div class=\"hists\">\n");
        sb.append(SvgHistogram.render("downtime", r.statistics().downtimeHistogram(), r.statistics().downtime(), Palette.DOWNTIME));
        for (Map.Entry<Phase, Histogram> e : r.statistics().phaseHistograms().entrySet()) {
            Phase p = e.getKey();
            sb.append(SvgHistogram.render(p.label() + (r.plan().preparationPhases().contains(p) ? " (preparation, not downtime)" : ""),
                    e.getValue(), r.statistics().phases().get(p), p.color()));
        }
        sb.append("</div>\n");
    }

    /** A text table as an HTML table (same cells, numbers right-aligned). */
    private static void table(StringBuilder sb, TextTable t) {
        sb.append("<div class=\"scroll\"><table>\n<tr>");
        for (String h : t.header()) {
            sb.append("<th>").append(Html.esc(h)).append("</th>");
        }
        sb.append("</tr>\n");
        for (List<String> row : t.rows()) {
            sb.append("<tr>");
            for (int c = 0; c < row.size(); c++) {
                sb.append(t.rightAligned(c) ? "<td class=\"n\">" : "<td>").append(Html.esc(row.get(c))).append("</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</table></div>\n");
    }
}
