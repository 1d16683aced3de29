package org.vdpactl.report.fleet;

import static org.vdpactl.report.Html.esc;
import static org.vdpactl.report.Html.num;

import java.util.List;
import java.util.Locale;
import org.vdpactl.report.Html;
import org.vdpactl.report.Palette;
import org.vdpactl.report.TextTable;

/**
 * The fleet report as one self-contained HTML file (inline CSS and SVG, no script, no network):
 * a bar per host (downtime, slowest first), the host table, each host's setup with the values that
 * differ from most hosts flagged, and the per-phase spread table. Phases wear the colours of the
 * rehearsal report ({@link Palette}). The markup is well-formed XML as well as HTML; the figure and
 * the page fit a phone's width.
 */
public final class FleetHtml {
    private static final String CSS = Html.BASE_CSS + """
            tr.partial td { background: #ffebee; }
            .simulated, .mixed, .differs-note { background: #fff3e0; border: 1px solid #fb8c00; }
            .differs-note { padding: 8px 12px; }
            td.differs { background: #fff3e0; font-weight: bold; }
            .bar { fill: %s; } .lbl { font-size: 12px; } svg.narrow .lbl { font-size: 13px; }
            svg.downtime { max-width: 660px; } td:first-child { white-space: nowrap; }
            @media (max-width: 520px) { svg.downtime.wide { display: none; } }
            @media (min-width: 521px) { svg.downtime.narrow { display: none; } }
            .swatch { display: inline-block; width: 11px; height: 11px; margin-right: 5px; border: 1px solid #9e9e9e; }
            """.formatted(Palette.DOWNTIME);
    // small enough that the names stay legible on a phone, where the figure is shrunk to the page's width
    private static final int LABEL_WIDTH = 124;
    private static final int BAR_WIDTH = 250;
    private static final int WIDTH = LABEL_WIDTH + BAR_WIDTH + 66;
    private static final int ROW = 20;
    private static final int LABEL_CHARS = 18;
    /**
     * A phone's drawing: the wide one shrunk to a 375 px screen set the host names at about 9.6 px. This one is narrow
     * (its viewBox about a phone's width, so it is drawn at about its own scale) and puts each name above its bar, at
     * least 12 px on the screen (ReportInBrowserTest measures it).
     */
    private static final int NARROW_WIDTH = 300;
    private static final int NARROW_BAR_WIDTH = 236;
    private static final int NARROW_ROW = 36;
    private static final int NARROW_LABEL_CHARS = 40;

    private FleetHtml() {
    }

    public static String render(FleetReport r) {
        StringBuilder sb = new StringBuilder(16 * 1024);
        String suffix = "simulated".equals(r.figures()) ? " (simulated)" : "";
        sb.append(Html.head("vdpactl fleet rehearsal" + suffix, CSS));
        sb.append("<h1>vdpactl fleet rehearsal").append(suffix).append("</h1>\n");
        sb.append("<p class=\"banner ").append(r.figures()).append("\">").append(esc(r.hosts().size() + " hosts, "
                + FleetText.label(r.figures()))).append("</p>\n");
        if (!r.differences().isEmpty()) {
            sb.append("<div class=\"differs-note\"><strong>").append(esc(FleetText.NOT_LIKE_FOR_LIKE)).append("</strong>\n<ul>\n");
            for (SetupDifference d : r.differences()) {
                sb.append("<li>").append(esc(d.describe())).append("</li>\n");
            }
            sb.append("</ul></div>\n");
        }
        sb.append("<h2>Downtime per host (ms, median over its iterations), slowest first</h2>\n");
        bars(sb, r);
        sb.append("<h2>Hosts</h2>\n");
        table(sb, FleetText.hostTable(r), r, false);
        sb.append("<h2>Setup per host").append(r.differences().isEmpty() ? " (the same on every host)" : " (* = differs from most hosts)")
                .append("</h2>\n");
        table(sb, FleetText.setupTable(r), r, true);
        if (r.downtime() != null) {
            sb.append("<h2>Spread across hosts (ms, nearest-rank percentiles of the hosts' medians)</h2>\n");
            table(sb, FleetText.spreadTable(r), null, false);
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
        sb.append("<svg class=\"downtime wide\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(height).append("\" width=\"100%\" role=\"img\" aria-label=\"downtime per host\">\n");
        for (int i = 0; i < hosts.size(); i++) {
            HostRehearsal h = hosts.get(i);
            int y = i * ROW + 2;
            String name = h.host().length() > LABEL_CHARS ? h.host().substring(0, LABEL_CHARS - 1) + "\u2026" : h.host();
            sb.append("<text class=\"lbl\" x=\"0\" y=\"").append(y + 14).append("\">").append(esc(name))
                    .append(h.differs().isEmpty() ? "" : " *").append("<title>").append(esc(h.host())).append("</title></text>\n");
            if (h.downtimeMs() != null && max > 0) {
                double w = Math.max(1, BAR_WIDTH * h.downtimeMs() / max);
                sb.append("<rect class=\"bar\" x=\"").append(LABEL_WIDTH).append("\" y=\"").append(y).append("\" width=\"")
                        .append(num(w)).append("\" height=\"").append(ROW - 5).append("\"><title>").append(esc(h.host() + ": "
                                + num(h.downtimeMs()) + " ms")).append("</title></rect>\n");
                sb.append("<text class=\"lbl\" x=\"").append(num(LABEL_WIDTH + 6 + w)).append("\" y=\"").append(y + 14).append("\">")
                        .append(String.format(Locale.ROOT, "%.2f", h.downtimeMs())).append("</text>\n");
            } else {
                sb.append("<text class=\"lbl\" x=\"").append(LABEL_WIDTH).append("\" y=\"").append(y + 14).append("\">")
                        .append(esc(h.outcome())).append(", no completed window</text>\n");
            }
        }
        sb.append("</svg>\n");
        narrowBars(sb, r, max);
    }

    /** The phone's drawing of the bars: each host's name on a line of its own, its bar and value below it. */
    private static void narrowBars(StringBuilder sb, FleetReport r, double max) {
        List<HostRehearsal> hosts = r.hosts();
        int height = NARROW_ROW * hosts.size() + 4;
        sb.append("<svg class=\"downtime narrow\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").append(NARROW_WIDTH)
                .append(' ').append(height).append("\" width=\"100%\" role=\"img\" aria-label=\"downtime per host\">\n");
        for (int i = 0; i < hosts.size(); i++) {
            HostRehearsal h = hosts.get(i);
            int y = i * NARROW_ROW + 2;
            String name = h.host().length() > NARROW_LABEL_CHARS ? h.host().substring(0, NARROW_LABEL_CHARS - 1) + "\u2026" : h.host();
            sb.append("<text class=\"lbl\" x=\"0\" y=\"").append(y + 12).append("\">").append(esc(name))
                    .append(h.differs().isEmpty() ? "" : " *").append("<title>").append(esc(h.host())).append("</title></text>\n");
            if (h.downtimeMs() != null && max > 0) {
                double w = Math.max(1, NARROW_BAR_WIDTH * h.downtimeMs() / max);
                sb.append("<rect class=\"bar\" x=\"0\" y=\"").append(y + 16).append("\" width=\"").append(num(w))
                        .append("\" height=\"").append(ROW - 6).append("\"><title>").append(esc(h.host() + ": " + num(h.downtimeMs())
                                + " ms")).append("</title></rect>\n");
                sb.append("<text class=\"lbl\" x=\"").append(num(w + 4)).append("\" y=\"").append(y + 29).append("\">")
                        .append(String.format(Locale.ROOT, "%.2f", h.downtimeMs())).append("</text>\n");
            } else {
                sb.append("<text class=\"lbl\" x=\"0\" y=\"").append(y + 29).append("\">").append(esc(h.outcome()))
                        .append(", no completed window</text>\n");
            }
        }
        sb.append("</svg>\n");
    }

    /**
     * A table (in a box that scrolls sideways on a narrow screen, the page does not); with {@code report}
     * given, its rows are the hosts': PARTIAL ones are marked, and with {@code setup} the cells of the
     * attributes a host differs in. A cell named after a phase gets the phase's colour.
     */
    private static void table(StringBuilder sb, TextTable t, FleetReport report, boolean setup) {
        sb.append("<div class=\"scroll\"><table>\n<tr>");
        for (String h : t.header()) {
            sb.append("<th>").append(esc(h)).append("</th>");
        }
        sb.append("</tr>\n");
        List<List<String>> rows = t.rows();
        for (int i = 0; i < rows.size(); i++) {
            HostRehearsal host = report == null ? null : report.hosts().get(i);
            sb.append(host != null && host.partial() && !setup ? "<tr class=\"partial\">" : "<tr>");
            List<String> row = rows.get(i);
            for (int c = 0; c < row.size(); c++) {
                String header = t.header().get(c);
                boolean differs = setup && host != null && host.differs().contains(header);
                sb.append(differs ? "<td class=\"differs\">" : t.rightAligned(c) ? "<td class=\"n\">" : "<td>");
                if (swatched(header, c, report) && !"-".equals(row.get(c))) {
                    String phase = row.get(c).replace(" (not downtime)", "");
                    sb.append("<span class=\"swatch\" style=\"background:").append(Palette.forLabel(phase)).append("\"></span>");
                }
                sb.append(esc(row.get(c))).append("</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</table></div>\n");
    }

    private static boolean swatched(String header, int column, FleetReport report) {
        return header.startsWith("slowest downtime phase") || (report == null && column == 0);
    }
}
