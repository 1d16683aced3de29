package org.vdpactl.report;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.vdpactl.orchestra.Percentiles;

/**
 * A small inline SVG bar chart of one HdrHistogram: 20 equal bins from its minimum to its maximum,
 * a count axis and each bar's count, a millisecond axis, and p50, p90 and p99 marked as dashed lines.
 * It scales with its box (viewBox, width 100 %).
 */
final class SvgHistogram {
    private static final int BINS = 20;
    private static final int WIDTH = 320;
    private static final int LEFT = 34;
    private static final int RIGHT = 12;
    private static final int PLOT_WIDTH = WIDTH - LEFT - RIGHT;
    private static final int TOP = 64;
    private static final int PLOT_HEIGHT = 96;
    private static final int HEIGHT = TOP + PLOT_HEIGHT + 40;

    private SvgHistogram() {
    }

    /**
     * @param title  the figure ("downtime" or a phase label)
     * @param h      the values, in nanoseconds
     * @param p      their percentiles (the same figures as the tables)
     * @param color  the figure's colour ({@link Palette})
     */
    static String render(String title, Histogram h, Percentiles p, String color) {
        long min = h.getMinValue();
        long max = h.getMaxValue();
        long[] bins = new long[BINS];
        double binWidth = Math.max(1, (max - min) / (double) BINS);
        for (HistogramIterationValue v : h.recordedValues()) {
            int b = (int) Math.min(BINS - 1, (v.getValueIteratedTo() - min) / binWidth);
            bins[Math.max(0, b)] += v.getCountAtValueIteratedTo();
        }
        long top = 1;
        for (long c : bins) {
            top = Math.max(top, c);
        }
        int base = TOP + PLOT_HEIGHT;
        StringBuilder sb = new StringBuilder();
        sb.append("<svg class=\"hist\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
                .append("\" width=\"100%\" role=\"img\" aria-label=\"").append(Html.esc("histogram of " + title)).append("\">\n");
        sb.append("<text x=\"0\" y=\"13\" class=\"htitle\">").append(Html.esc(title)).append("</text>\n");
        sb.append("<text x=\"0\" y=\"28\" class=\"tick\">")
                .append(Html.esc(String.format(java.util.Locale.ROOT, "p50 %s  p90 %s  p99 %s ms", Durations.ms(p.p50()),
                        Durations.ms(p.p90()), Durations.ms(p.p99()))))
                .append("</text>\n");
        countAxis(sb, top, base);
        double bw = PLOT_WIDTH / (double) BINS;
        for (int i = 0; i < BINS; i++) {
            if (bins[i] == 0) {
                continue;
            }
            double hgt = PLOT_HEIGHT * bins[i] / (double) top;
            double x = LEFT + i * bw;
            sb.append("<rect class=\"bin\" x=\"").append(Html.num(x + 1)).append("\" y=\"").append(Html.num(base - hgt))
                    .append("\" width=\"").append(Html.num(bw - 2)).append("\" height=\"").append(Html.num(hgt))
                    .append("\" fill=\"").append(color).append("\"><title>").append(bins[i])
                    .append(bins[i] == 1 ? " iteration, " : " iterations, ").append(Durations.ms(Math.round(min + i * binWidth)))
                    .append(" to ").append(Durations.ms(Math.round(min + (i + 1) * binWidth))).append(" ms</title></rect>\n");
            sb.append("<text x=\"").append(Html.num(x + bw / 2)).append("\" y=\"").append(Html.num(base - hgt - 3))
                    .append("\" text-anchor=\"middle\" class=\"count\">").append(bins[i]).append("</text>\n");
        }
        sb.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(base).append("\" x2=\"").append(LEFT + PLOT_WIDTH)
                .append("\" y2=\"").append(base).append("\" stroke=\"").append(Palette.INK).append("\"/>\n");
        String[] names = {"p50", "p90", "p99"};
        long[] values = {p.p50(), p.p90(), p.p99()};
        for (int i = 0; i < names.length; i++) {
            double x = xOf(values[i], min, max);
            int labelY = TOP - 24 + i * 9;
            boolean nearRight = x > LEFT + PLOT_WIDTH - 24;
            sb.append("<g class=\"pct\"><line x1=\"").append(Html.num(x)).append("\" y1=\"").append(labelY + 2).append("\" x2=\"")
                    .append(Html.num(x)).append("\" y2=\"").append(base).append("\" stroke=\"").append(Palette.INK)
                    .append("\" stroke-dasharray=\"3 2\"/><text x=\"").append(Html.num(nearRight ? x - 2 : x + 2)).append("\" y=\"")
                    .append(labelY).append(nearRight ? "\" text-anchor=\"end" : "").append("\" class=\"count\">").append(names[i]).append("</text><title>").append(names[i]).append(' ')
                    .append(Durations.ms(values[i])).append(" ms</title></g>\n");
        }
        sb.append("<text x=\"").append(LEFT).append("\" y=\"").append(base + 14).append("\" class=\"tick\">").append(Durations.ms(min))
                .append("</text>\n");
        sb.append("<text x=\"").append(LEFT + PLOT_WIDTH).append("\" y=\"").append(base + 14).append("\" text-anchor=\"end\" class=\"tick\">")
                .append(Durations.ms(max)).append("</text>\n");
        sb.append("<text x=\"").append(LEFT + PLOT_WIDTH / 2).append("\" y=\"").append(base + 30)
                .append("\" text-anchor=\"middle\" class=\"tick\">ms (").append(p.count()).append(p.count() == 1 ? " iteration" : " iterations")
                .append(")</text>\n");
        sb.append("</svg>\n");
        return sb.toString();
    }

    /** The vertical axis: 0, the tallest bar's count and the middle when it is a whole number. */
    private static void countAxis(StringBuilder sb, long top, int base) {
        sb.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(TOP).append("\" x2=\"").append(LEFT).append("\" y2=\"")
                .append(base).append("\" stroke=\"").append(Palette.INK).append("\"/>\n");
        long[] ticks = top % 2 == 0 && top > 2 ? new long[] {0, top / 2, top} : new long[] {0, top};
        for (long c : ticks) {
            double y = base - PLOT_HEIGHT * c / (double) top;
            sb.append("<line x1=\"").append(LEFT - 4).append("\" y1=\"").append(Html.num(y)).append("\" x2=\"").append(LEFT)
                    .append("\" y2=\"").append(Html.num(y)).append("\" stroke=\"").append(Palette.INK).append("\"/>");
            sb.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(Html.num(y + 4)).append("\" text-anchor=\"end\" class=\"tick\">")
                    .append(c).append("</text>\n");
        }
        sb.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(TOP - 8).append("\" text-anchor=\"end\" class=\"count\">count</text>\n");
    }

    private static double xOf(long v, long min, long max) {
        if (max <= min) {
            return LEFT + PLOT_WIDTH / (2.0 * BINS);
        }
        return LEFT + PLOT_WIDTH * Math.min(1.0, Math.max(0.0, (v - min) / (double) (max - min)));
    }
}
