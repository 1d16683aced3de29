package org.vdpactl.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.vdpactl.orchestra.Percentiles;

/**
 * A small inline SVG bar chart of one HdrHistogram: 20 equal bins from its minimum to its maximum,
 * a count axis and each bar's count, a millisecond axis labelled at its ends and at round values between
 * them, and p50, p90 and p99 marked as dashed lines
 * (percentiles at the same place share one line and one label, "p50 = p90 = p99").
 * When every value fell into one of HdrHistogram's buckets (a single iteration, or the fake's virtual
 * clock, on which every iteration takes the same time) there is no range to bin: the chart is one bar
 * in the middle with its count, the value written under it, and the percentiles marked above it.
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
    /** The single bar of a one-value chart: a fifth of the axis, in its middle. */
    private static final double ONE_BAR_WIDTH = PLOT_WIDTH / 5.0;
    private static final double CENTER = LEFT + PLOT_WIDTH / 2.0;

    private SvgHistogram() {
    }

    /**
     * @param title  the figure ("downtime" or a phase label)
     * @param h      the values, in nanoseconds
     * @param p      their percentiles (the same figures as the tables)
     * @param color  the figure's colour ({@link Palette})
     */
    static String render(String title, Histogram h, Percentiles p, String color) {
        boolean oneValue = distinctValues(h) <= 1;
        int base = TOP + PLOT_HEIGHT;
        StringBuilder sb = new StringBuilder();
        sb.append("<svg class=\"hist").append(oneValue ? " one-value" : "").append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(HEIGHT).append("\" width=\"100%\" role=\"img\" aria-label=\"").append(Html.esc("histogram of " + title))
                .append("\">\n");
        sb.append("<text x=\"0\" y=\"13\" class=\"htitle\">").append(Html.esc(title)).append("</text>\n");
        sb.append("<text x=\"0\" y=\"28\" class=\"tick\">")
                .append(Html.esc(String.format(Locale.ROOT, "p50 %s  p90 %s  p99 %s ms", Durations.ms(p.p50()),
                        Durations.ms(p.p90()), Durations.ms(p.p99()))))
                .append("</text>\n");
        long top = oneValue ? Math.max(1, h.getTotalCount()) : binnedChart(sb, h, color, base);
        if (oneValue) {
            bar(sb, CENTER - ONE_BAR_WIDTH / 2, ONE_BAR_WIDTH, base, PLOT_HEIGHT, h.getTotalCount(), color,
                    (h.getTotalCount() == 1 ? "1 iteration, " : "all " + h.getTotalCount() + " iterations, ") + Durations.ms(p.p50()) + " ms");
        }
        countAxis(sb, top, base);
        sb.append("<line class=\"axis\" x1=\"").append(LEFT).append("\" y1=\"").append(base).append("\" x2=\"").append(LEFT + PLOT_WIDTH)
                .append("\" y2=\"").append(base).append("\" stroke=\"").append(Palette.INK).append("\"/>\n");
        percentileMarks(sb, h, p, oneValue, base);
        if (oneValue) {
            sb.append("<line x1=\"").append(Html.num(CENTER)).append("\" y1=\"").append(base).append("\" x2=\"").append(Html.num(CENTER))
                    .append("\" y2=\"").append(base + 4).append("\" stroke=\"").append(Palette.INK).append("\"/>\n");
            sb.append("<text x=\"").append(Html.num(CENTER)).append("\" y=\"").append(base + 14)
                    .append("\" text-anchor=\"middle\" class=\"tick xtick\">").append(Durations.ms(p.p50())).append("</text>\n");
        } else {
            sb.append("<text x=\"").append(LEFT).append("\" y=\"").append(base + 14).append("\" class=\"tick xtick\">")
                    .append(Durations.ms(h.getMinValue())).append("</text>\n");
            sb.append("<text x=\"").append(LEFT + PLOT_WIDTH).append("\" y=\"").append(base + 14)
                    .append("\" text-anchor=\"end\" class=\"tick xtick\">").append(Durations.ms(h.getMaxValue())).append("</text>\n");
            innerTicks(sb, h.getMinValue(), h.getMaxValue(), base);
        }
        sb.append("<text x=\"").append(LEFT + PLOT_WIDTH / 2).append("\" y=\"").append(base + 30)
                .append("\" text-anchor=\"middle\" class=\"tick\">ms (").append(p.count()).append(p.count() == 1 ? " iteration" : " iterations")
                .append(oneValue && p.count() > 1 ? ", all equal" : "").append(")</text>\n");
        sb.append("</svg>\n");
        return sb.toString();
    }

    /** How many of HdrHistogram's buckets hold a value (values within one bucket are one value to it). */
    private static int distinctValues(Histogram h) {
        int n = 0;
        for (HistogramIterationValue ignored : h.recordedValues()) {
            n++;
        }
        return n;
    }

    /** The 20 bins from the minimum to the maximum; returns the tallest bin's count. */
    private static long binnedChart(StringBuilder sb, Histogram h, String color, int base) {
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
        double bw = PLOT_WIDTH / (double) BINS;
        for (int i = 0; i < BINS; i++) {
            if (bins[i] != 0) {
                bar(sb, LEFT + i * bw, bw, base, PLOT_HEIGHT * bins[i] / (double) top, bins[i], color,
                        bins[i] + (bins[i] == 1 ? " iteration, " : " iterations, ") + Durations.ms(Math.round(min + i * binWidth))
                                + " to " + Durations.ms(Math.round(min + (i + 1) * binWidth)) + " ms");
            }
        }
        return top;
    }

    private static void bar(StringBuilder sb, double x, double width, int base, double height, long count, String color, String tip) {
        sb.append("<rect class=\"bin\" x=\"").append(Html.num(x + 1)).append("\" y=\"").append(Html.num(base - height))
                .append("\" width=\"").append(Html.num(width - 2)).append("\" height=\"").append(Html.num(height))
                .append("\" fill=\"").append(color).append("\"><title>").append(Html.esc(tip)).append("</title></rect>\n");
        sb.append("<text x=\"").append(Html.num(x + width / 2)).append("\" y=\"").append(Html.num(base - height - 3))
                .append("\" text-anchor=\"middle\" class=\"count\">").append(count).append("</text>\n");
    }

    /**
     * p50, p90 and p99 as dashed lines, one per place: percentiles that fall on the same place share a line and a label.
     * Over a one-value chart the line stops above the bar's count, which it would otherwise cross.
     */
    private static void percentileMarks(StringBuilder sb, Histogram h, Percentiles p, boolean oneValue, int base) {
        String[] names = {"p50", "p90", "p99"};
        long[] values = {p.p50(), p.p90(), p.p99()};
        Map<String, List<Integer>> byPlace = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            double x = oneValue ? CENTER : xOf(values[i], h.getMinValue(), h.getMaxValue());
            byPlace.computeIfAbsent(Html.num(x), k -> new ArrayList<>()).add(i);
        }
        int row = 0;
        for (Map.Entry<String, List<Integer>> place : byPlace.entrySet()) {
            double x = Double.parseDouble(place.getKey());
            List<String> label = new ArrayList<>();
            List<String> tip = new ArrayList<>();
            for (int i : place.getValue()) {
                label.add(names[i]);
                tip.add(names[i] + " " + Durations.ms(values[i]) + " ms");
            }
            int labelY = TOP - 24 + row++ * 9;
            int lineEnd = oneValue ? TOP - 14 : base;
            boolean nearRight = x > LEFT + PLOT_WIDTH - 24;
            sb.append("<g class=\"pct\"><line x1=\"").append(Html.num(x)).append("\" y1=\"").append(labelY + 2).append("\" x2=\"")
                    .append(Html.num(x)).append("\" y2=\"").append(lineEnd).append("\" stroke=\"").append(Palette.INK)
                    .append("\" stroke-dasharray=\"3 2\"/><text x=\"").append(Html.num(nearRight ? x - 2 : x + 2)).append("\" y=\"")
                    .append(labelY).append(nearRight ? "\" text-anchor=\"end" : "").append("\" class=\"count\">")
                    .append(String.join(" = ", label)).append("</text><title>").append(Html.esc(String.join(", ", tip)))
                    .append("</title></g>\n");
        }
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

    /** Room a tick's label needs from its neighbours (a "12.34" label at the tick font is about 28 px wide). */
    private static final double LABEL_ROOM = 36;

    /**
     * Round values between the minimum and the maximum, marked and labelled, so that a reader can place a bar without
     * interpolating between the two ends: a step of 1, 2 or 5 × 10^k ns giving about four intervals, and no label
     * closer to another than {@link #LABEL_ROOM}.
     */
    private static void innerTicks(StringBuilder sb, long min, long max, int base) {
        for (long v : roundValuesBetween(min, max)) {
            double x = xOf(v, min, max);
            if (x - LEFT < LABEL_ROOM || LEFT + PLOT_WIDTH - x < LABEL_ROOM) {
                continue;
            }
            sb.append("<line x1=\"").append(Html.num(x)).append("\" y1=\"").append(base).append("\" x2=\"").append(Html.num(x))
                    .append("\" y2=\"").append(base + 4).append("\" stroke=\"").append(Palette.INK).append("\"/>");
            sb.append("<text x=\"").append(Html.num(x)).append("\" y=\"").append(base + 14)
                    .append("\" text-anchor=\"middle\" class=\"tick xtick\">").append(Durations.ms(v)).append("</text>\n");
        }
    }

    /** The multiples of a round step (1, 2 or 5 × 10^k, about a quarter of the range) strictly between {@code min} and {@code max}. */
    static List<Long> roundValuesBetween(long min, long max) {
        List<Long> out = new ArrayList<>();
        if (max - min < 4) {
            return out;
        }
        double raw = (max - min) / 4.0;
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = raw / magnitude < 1.5 ? magnitude : raw / magnitude < 3.5 ? 2 * magnitude : raw / magnitude < 7.5
                ? 5 * magnitude : 10 * magnitude;
        long s = Math.max(1, Math.round(step));
        for (long v = (min / s + 1) * s; v < max; v += s) {
            out.add(v);
        }
        return out;
    }

    private static double xOf(long v, long min, long max) {
        if (max <= min) {
            return LEFT + PLOT_WIDTH / (2.0 * BINS);
        }
        return LEFT + PLOT_WIDTH * Math.min(1.0, Math.max(0.0, (v - min) / (double) (max - min)));
    }
}
