package org.vdpactl.report;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.vdpactl.orchestra.Phase;
import org.vdpactl.orchestra.Span;
import org.vdpactl.orchestra.Timeline;

/**
 * An inline SVG timeline of one iteration: one row per device, one coloured bar per phase (from the
 * device's first call of the phase to its last return), failed calls marked in red, a time axis in
 * milliseconds and a legend. Rollback work after a failure is drawn in grey.
 */
final class SvgTimeline {
    private static final int LABEL_WIDTH = 140;
    private static final int PLOT_WIDTH = 800;
    private static final int ROW_HEIGHT = 22;
    private static final int BAR_HEIGHT = 14;
    private static final int TOP = 10;
    private static final int AXIS_HEIGHT = 46;
    private static final int LEGEND_ROW = 20;

    private SvgTimeline() {
    }

    static String render(Timeline t) {
        List<Span> shown = new ArrayList<>();
        for (Span s : t.spans()) {
            if (s.phase().inWindow() || s.phase() == Phase.ROLLBACK) {
                shown.add(s);
            }
        }
        long t0 = shown.stream().mapToLong(Span::startNanos).min().orElse(0);
        long t1 = Math.max(t0 + 1, shown.stream().mapToLong(Span::endNanos).max().orElse(t0 + 1));
        double scale = PLOT_WIDTH / (double) (t1 - t0);
        List<String> devices = t.devices();
        Set<Phase> used = EnumSet.noneOf(Phase.class);
        shown.forEach(s -> used.add(s.phase()));
        int legendRows = (used.size() + 4) / 5;
        int plotBottom = TOP + devices.size() * ROW_HEIGHT;
        int height = plotBottom + AXIS_HEIGHT + legendRows * LEGEND_ROW + 6;
        int width = LABEL_WIDTH + PLOT_WIDTH + 30;

        StringBuilder sb = new StringBuilder();
        sb.append("<svg class=\"timeline\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" role=\"img\" aria-label=\"timeline: one row per device, one bar per phase\">\n");
        for (int i = 0; i < devices.size(); i++) {
            int y = TOP + i * ROW_HEIGHT;
            if (i % 2 == 1) {
                sb.append("<rect x=\"0\" y=\"").append(y).append("\" width=\"").append(width).append("\" height=\"")
                        .append(ROW_HEIGHT).append("\" fill=\"#f5f5f5\"/>\n");
            }
            sb.append("<text x=\"").append(LABEL_WIDTH - 8).append("\" y=\"").append(y + ROW_HEIGHT / 2 + 4)
                    .append("\" text-anchor=\"end\" class=\"dev\">").append(Html.esc(devices.get(i))).append("</text>\n");
        }
        axis(sb, t0, t1, scale, plotBottom);
        for (int i = 0; i < devices.size(); i++) {
            String device = devices.get(i);
            int y = TOP + i * ROW_HEIGHT + (ROW_HEIGHT - BAR_HEIGHT) / 2;
            for (Phase p : used) {
                long first = Long.MAX_VALUE;
                long last = Long.MIN_VALUE;
                int calls = 0;
                for (Span s : shown) {
                    if (s.device().equals(device) && s.phase() == p) {
                        first = Math.min(first, s.startNanos());
                        last = Math.max(last, s.endNanos());
                        calls++;
                    }
                }
                if (calls == 0) {
                    continue;
                }
                double x = LABEL_WIDTH + (first - t0) * scale;
                double w = Math.max(1.0, (last - first) * scale);
                sb.append("<rect x=\"").append(Html.num(x)).append("\" y=\"").append(y).append("\" width=\"").append(Html.num(w))
                        .append("\" height=\"").append(BAR_HEIGHT).append("\" fill=\"").append(p.color()).append("\"><title>")
                        .append(Html.esc(device + " " + p.label() + ": " + Durations.ms(last - first) + " ms, " + calls
                                + (calls == 1 ? " call" : " calls")))
                        .append("</title></rect>\n");
            }
            for (Span s : shown) {
                if (s.device().equals(device) && s.failed()) {
                    double x = LABEL_WIDTH + (s.startNanos() - t0) * scale;
                    double w = Math.max(3.0, s.durationNanos() * scale);
                    sb.append("<rect class=\"fail\" x=\"").append(Html.num(x)).append("\" y=\"").append(y - 2)
                            .append("\" width=\"").append(Html.num(w)).append("\" height=\"").append(BAR_HEIGHT + 4)
                            .append("\" fill=\"none\" stroke=\"#d50000\" stroke-width=\"2\"><title>")
                            .append(Html.esc(device + " " + s.call() + " failed: " + s.errnoName())).append("</title></rect>\n");
                }
            }
        }
        legend(sb, used, plotBottom + AXIS_HEIGHT);
        sb.append("</svg>\n");
        return sb.toString();
    }

    private static void axis(StringBuilder sb, long t0, long t1, double scale, int y) {
        double spanMs = (t1 - t0) / 1e6;
        double step = niceStep(spanMs / 8);
        sb.append("<line x1=\"").append(LABEL_WIDTH).append("\" y1=\"").append(y).append("\" x2=\"").append(LABEL_WIDTH + PLOT_WIDTH)
                .append("\" y2=\"").append(y).append("\" stroke=\"#424242\"/>\n");
        for (double ms = 0; ms <= spanMs + 1e-9; ms += step) {
            double x = LABEL_WIDTH + ms * 1e6 * scale;
            sb.append("<line x1=\"").append(Html.num(x)).append("\" y1=\"").append(TOP).append("\" x2=\"").append(Html.num(x))
                    .append("\" y2=\"").append(y + 4).append("\" stroke=\"#e0e0e0\"/>\n");
            sb.append("<text x=\"").append(Html.num(x)).append("\" y=\"").append(y + 16).append("\" text-anchor=\"middle\" class=\"tick\">")
                    .append(Html.esc(trim(ms))).append("</text>\n");
        }
        sb.append("<text x=\"").append(LABEL_WIDTH + PLOT_WIDTH).append("\" y=\"").append(y + 30)
                .append("\" text-anchor=\"end\" class=\"tick\">ms from the first suspend</text>\n");
    }

    private static void legend(StringBuilder sb, Set<Phase> used, int y) {
        int i = 0;
        for (Phase p : used) {
            int x = LABEL_WIDTH + (i % 5) * 160;
            int row = y + (i / 5) * LEGEND_ROW;
            sb.append("<rect x=\"").append(x).append("\" y=\"").append(row).append("\" width=\"12\" height=\"12\" fill=\"")
                    .append(p.color()).append("\"/>");
            sb.append("<text x=\"").append(x + 16).append("\" y=\"").append(row + 11).append("\" class=\"tick\">")
                    .append(Html.esc(p.label())).append("</text>\n");
            i++;
        }
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        if (raw <= 0) {
            return 1;
        }
        double pow = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * pow >= raw) {
                return m * pow;
            }
        }
        return 10 * pow;
    }

    private static String trim(double ms) {
        if (ms == Math.rint(ms)) {
            return String.valueOf((long) ms);
        }
        return String.format(java.util.Locale.ROOT, "%.3g", ms);
    }
}
