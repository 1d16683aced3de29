package org.vdpactl.report;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/** A small inline SVG bar chart of one HdrHistogram: 20 equal bins from its minimum to its maximum. */
final class SvgHistogram {
    private static final int BINS = 20;
    private static final int WIDTH = 300;
    private static final int HEIGHT = 90;
    private static final int PAD = 18;

    private SvgHistogram() {
    }

    static String render(String title, Histogram h) {
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
        StringBuilder sb = new StringBuilder();
        sb.append("<svg class=\"hist\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT + 2 * PAD)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT + 2 * PAD).append("\" role=\"img\" aria-label=\"")
                .append(Html.esc("histogram of " + title)).append("\">\n");
        sb.append("<text x=\"0\" y=\"12\" class=\"tick\">").append(Html.esc(title)).append("</text>\n");
        double bw = WIDTH / (double) BINS;
        for (int i = 0; i < BINS; i++) {
            if (bins[i] == 0) {
                continue;
            }
            double hgt = HEIGHT * bins[i] / (double) top;
            sb.append("<rect x=\"").append(Html.num(i * bw + 1)).append("\" y=\"").append(Html.num(PAD + HEIGHT - hgt))
                    .append("\" width=\"").append(Html.num(bw - 2)).append("\" height=\"").append(Html.num(hgt))
                    .append("\" fill=\"#1e88e5\"><title>").append(bins[i]).append(bins[i] == 1 ? " iteration" : " iterations")
                    .append("</title></rect>\n");
        }
        int base = PAD + HEIGHT;
        sb.append("<line x1=\"0\" y1=\"").append(base).append("\" x2=\"").append(WIDTH).append("\" y2=\"").append(base)
                .append("\" stroke=\"#424242\"/>\n");
        sb.append("<text x=\"0\" y=\"").append(base + 14).append("\" class=\"tick\">").append(Durations.ms(min)).append(" ms</text>\n");
        sb.append("<text x=\"").append(WIDTH).append("\" y=\"").append(base + 14).append("\" text-anchor=\"end\" class=\"tick\">")
                .append(Durations.ms(max)).append(" ms</text>\n");
        sb.append("</svg>\n");
        return sb.toString();
    }
}
