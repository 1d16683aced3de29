package org.vdpactl.report.fleet;

import static org.vdpactl.report.Html.esc;
import static org.vdpactl.report.Html.num;

import java.util.List;
import java.util.Locale;
import org.vdpactl.report.TextTable;

/**
 * The fleet report as one self-contained HTML file (inline CSS and SVG, no script, no network):
 * a bar per host (downtime, slowest first), the host table and the per-phase spread table. The
 * markup is well-formed XML as well as HTML.
 */
public final class FleetHtml {
    private static final String CSS = org.vdpactl.report.Html.BASE_CSS + """
            tr.partial td { background: #ffebee; }
            .simulated, .mixed { background: #fff3e0; border: 1px solid #fb8c00; }
            .bar { fill: #1e88e5; } .lbl { font-size: 12px; }
            """;
    private static final int BAR_WIDTH = 480;
    private static final int ROW = 18;

    private FleetHtml() {
    }

    public static String render(FleetReport r) {
        StringBuilder sb = new StringBuilder(16 * 1024);
        String suffix = "simulated".equals(r.figures()) ? " (simulated)" : "";
        sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>vdpactl fleet rehearsal")
                .append(suffix).append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        sb.append("<h1>vdpactl fleet rehearsal").append(suffix).append("</h1>\n");
        sb.append("<p class=\"banner ").append(r.figures()).append("\">").append(esc(r.hosts().size() + " hosts, "
                + FleetText.label(r.figures()))).append("</p>\n");
        sb.append("<h2>Downtime per host (ms, median over its iterations), slowest first</h2>\n");
        bars(sb, r);
        sb.append("<h2>Hosts</h2>\n");
        table(sb, FleetText.hostTable(r), r);
        if (r.downtime() != null) {
            sb.append("<h2>Spread across hosts (ms, nearest-rank percentiles of the hosts' medians)</h2>\n");
            table(sb, FleetText.spreadTable(r), null);
        }
        if (!r.partial().isEmpty()) {
            sb.append("<h2>PARTIAL hosts</h2>\n<ul>\n");
            for (HostRehearsal h : r.hosts()) {
                if (h.partial()) {
                    sb.append("<li>").append(esc(h.host() + ": " + (h.failure() == null ? "failed" : h.failure()))).append("</li>\n");
                }
            }
            sb.append("</ul>\n");
        }
        sb.append("</body>\n</html>\n");
        return sb.toString();
    }

    private static void bars(StringBuilder sb, FleetReport r) {
        double max = r.downtime() == null ? 0 : r.downtime().maxMs();
        List<HostRehearsal> hosts = r.hosts();
        int height = ROW * hosts.size() + 4;
        sb.append("<svg class=\"downtime\" xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(BAR_WIDTH + 260)
                .append("\" height=\"").append(height).append("\">\n");
        for (int i = 0; i < hosts.size(); i++) {
            HostRehearsal h = hosts.get(i);
            int y = i * ROW + 2;
            sb.append("<text class=\"lbl\" x=\"0\" y=\"").append(y + 13).append("\">").append(esc(h.host())).append("</text>\n");
            if (h.downtimeMs() != null && max > 0) {
                double w = Math.max(1, BAR_WIDTH * h.downtimeMs() / max);
                sb.append("<rect class=\"bar\" x=\"140\" y=\"").append(y).append("\" width=\"").append(num(w))
                        .append("\" height=\"").append(ROW - 4).append("\"><title>").append(esc(h.host() + ": "
                                + num(h.downtimeMs()) + " ms")).append("</title></rect>\n");
                sb.append("<text class=\"lbl\" x=\"").append(num(146 + w)).append("\" y=\"").append(y + 13).append("\">")
                        .append(String.format(Locale.ROOT, "%.2f", h.downtimeMs())).append("</text>\n");
            } else {
                sb.append("<text class=\"lbl\" x=\"140\" y=\"").append(y + 13).append("\">").append(esc(h.outcome()))
                        .append(", no completed window</text>\n");
            }
        }
        sb.append("</svg>\n");
    }

    /** A table; with {@code report} given, rows of PARTIAL hosts are marked. */
    private static void table(StringBuilder sb, TextTable t, FleetReport report) {
        sb.append("<table>\n<tr>");
        for (String h : t.header()) {
            sb.append("<th>").append(esc(h)).append("</th>");
        }
        sb.append("</tr>\n");
        List<List<String>> rows = t.rows();
        for (int i = 0; i < rows.size(); i++) {
            boolean partial = report != null && report.hosts().get(i).partial();
            sb.append(partial ? "<tr class=\"partial\">" : "<tr>");
            List<String> row = rows.get(i);
            for (int c = 0; c < row.size(); c++) {
                sb.append(t.rightAligned(c) ? "<td class=\"n\">" : "<td>").append(esc(row.get(c))).append("</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</table>\n");
    }
}
