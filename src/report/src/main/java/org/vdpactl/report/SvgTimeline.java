package org.vdpactl.report;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.vdpactl.orchestra.Phase;
import org.vdpactl.orchestra.Span;
import org.vdpactl.orchestra.Timeline;

/**
 * An inline SVG timeline of one iteration: one row per device, one coloured bar per phase (from the
 * device's first call of the phase to its last return), failed calls marked with a red outline, a
 * time axis in milliseconds and, below the figure, an HTML legend (it wraps on a phone). Rollback work
 * after a failure is drawn in grey.
 *
 * <p>The downtime fills the chart: a long stretch in which only the destination's preparation runs
 * (the reset of a migration window) is collapsed into a hatched break labelled "not downtime" with its
 * real length ({@link BrokenTimeAxis}); preparation bars are hatched wherever they are. The figure
 * scales with the page (viewBox, width 100 %), from phone width up.
 */
final class SvgTimeline {
    /**
     * One drawing of the timeline: the wide one puts the device names left of the rows; the narrow one
     * (a phone, shown by a CSS media query instead of the wide one) puts them above the bars, so that
     * the bars keep the whole width and the text stays legible.
     */
    private record Layout(String name, int width, int labelWidth, int plotWidth, int breakWidth, int rowHeight,
            boolean labelsAbove, int ticks) {
        int plotLeft() {
            return labelsAbove ? 8 : labelWidth;
        }

        String hatch() {
            return "prep-hatch-" + name;
        }
    }

    private static final Layout WIDE = new Layout("wide", 800, 100, 676, 64, 24, false, 6);
    private static final Layout NARROW = new Layout("narrow", 400, 0, 376, 48, 36, true, 4);
    private static final int BAR_HEIGHT = 16;
    private static final int BREAK_LABEL_BAND = 34;
    private static final int AXIS_HEIGHT = 44;
    private static final int LABEL_CHARS = 14;
    /** Up to this many rows the time axis under the rows is in view with them; more rows get one above them too. */
    private static final int ROWS_WITHOUT_TOP_AXIS = 16;
    private static final int TOP_AXIS_BAND = 22;

    private SvgTimeline() {
    }

    static String render(Timeline t) {
        List<Span> shown = new ArrayList<>();
        for (Span s : t.spans()) {
            if (s.phase().inWindow() || s.phase() == Phase.ROLLBACK) {
                shown.add(s);
            }
        }
        Set<Phase> used = EnumSet.noneOf(Phase.class);
        shown.forEach(s -> used.add(s.phase()));
        Set<String> overlapping = preparationDuringOthersDowntime(t, shown);
        StringBuilder sb = new StringBuilder();
        sb.append("<figure class=\"timeline\">\n");
        svg(sb, t, shown, used, overlapping, WIDE);
        svg(sb, t, shown, used, overlapping, NARROW);
        legend(sb, t, used);
        overlapNote(sb, overlapping);
        sb.append("</figure>\n");
        return sb.toString();
    }

    /**
     * The "device phase" keys of preparation bars that run while another device is in a downtime phase (pipelined:
     * the next destination resets while the previous device is down). No break can take them off the axis, so they
     * stand on the downtime axis at their real time and are marked and explained instead.
     */
    static Set<String> preparationDuringOthersDowntime(Timeline t, List<Span> shown) {
        Set<String> out = new LinkedHashSet<>();
        for (Span p : shown) {
            if (!t.preparation().contains(p.phase())) {
                continue;
            }
            for (Span d : shown) {
                if (!d.device().equals(p.device()) && t.inDowntime(d.phase()) && d.startNanos() < p.endNanos()
                        && d.endNanos() > p.startNanos()) {
                    out.add(key(p.device(), p.phase()));
                    break;
                }
            }
        }
        return out;
    }

    private static String key(String device, Phase p) {
        return device + " " + p.label();
    }

    /** Says, under the figure, which hatched bars share the downtime axis with other devices' downtime, and what they are. */
    private static void overlapNote(StringBuilder sb, Set<String> overlapping) {
        if (overlapping.isEmpty()) {
            return;
        }
        List<String> bars = List.copyOf(overlapping);
        String named = String.join(", ", bars.subList(0, Math.min(4, bars.size())))
                + (bars.size() > 4 ? " and " + (bars.size() - 4) + " more" : "");
        sb.append("<p class=\"timeline-note prep-overlap\">Note: ").append(bars.size() == 1 ? "the hatched bar " : "the hatched bars ")
                .append(Html.esc(named)).append(bars.size() == 1 ? " runs" : " run")
                .append(" while other devices are in their downtime, so ").append(bars.size() == 1 ? "it is" : "they are")
                .append(" drawn on the downtime axis, outlined in dashes: destination preparation, not downtime.")
                .append(" Only the time some device spends in a downtime phase counts as downtime.</p>\n");
    }

    private static void svg(StringBuilder sb, Timeline t, List<Span> shown, Set<Phase> used, Set<String> overlapping, Layout l) {
        BrokenTimeAxis axis = BrokenTimeAxis.of(shown, s -> t.preparation().contains(s.phase()), l.plotLeft(), l.plotWidth(),
                l.breakWidth());
        List<String> devices = t.devices();
        // a tall timeline (64 devices: thousands of pixels) gets its time axis at the top as well, where a reader starts
        int axisAbove = devices.size() > ROWS_WITHOUT_TOP_AXIS ? TOP_AXIS_BAND : 0;
        int top = axisAbove + (axis.breaks().isEmpty() ? 8 : BREAK_LABEL_BAND);
        int plotBottom = top + devices.size() * l.rowHeight();
        int height = plotBottom + AXIS_HEIGHT;
        sb.append("<svg class=\"timeline ").append(l.name()).append("\" viewBox=\"0 0 ").append(l.width()).append(' ').append(height)
                .append("\" width=\"100%\" preserveAspectRatio=\"xMinYMin meet\" role=\"img\"")
                .append(" aria-label=\"timeline: one row per device, one bar per phase\">\n");
        sb.append("<defs><pattern id=\"").append(l.hatch()).append("\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\"")
                .append(" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#ffffff\"/>")
                .append("<rect width=\"3\" height=\"6\" fill=\"").append(Phase.RESET.color()).append("\"/></pattern></defs>\n");
        sb.append("<rect class=\"plot\" x=\"").append(l.plotLeft()).append("\" y=\"").append(top).append("\" width=\"")
                .append(l.plotWidth()).append("\" height=\"").append(plotBottom - top).append("\" fill=\"none\"/>\n");
        for (int i = 0; i < devices.size(); i++) {
            int y = top + i * l.rowHeight();
            if (i % 2 == 1) {
                sb.append("<rect x=\"0\" y=\"").append(y).append("\" width=\"").append(l.width()).append("\" height=\"")
                        .append(l.rowHeight()).append("\" fill=\"#f5f5f5\"/>\n");
            }
            String name = devices.get(i);
            if (l.labelsAbove()) {
                sb.append("<text x=\"").append(l.plotLeft()).append("\" y=\"").append(y + 12).append("\" class=\"dev\">")
                        .append(Html.esc(name)).append("</text>\n");
            } else {
                boolean cut = name.length() > LABEL_CHARS;
                sb.append("<text x=\"").append(l.labelWidth() - 8).append("\" y=\"").append(y + l.rowHeight() / 2 + 5)
                        .append("\" text-anchor=\"end\" class=\"dev\">")
                        .append(Html.esc(cut ? name.substring(0, LABEL_CHARS - 1) + "\u2026" : name))
                        .append(cut ? "<title>" + Html.esc(name) + "</title>" : "").append("</text>\n");
            }
        }
        breaks(sb, axis, t, shown, top, plotBottom);
        ticks(sb, axis, l, top, plotBottom);
        if (axisAbove > 0) {
            topTicks(sb, axis, l, axisAbove - 6);
        }
        for (int i = 0; i < devices.size(); i++) {
            int barTop = top + i * l.rowHeight() + (l.labelsAbove() ? 16 : (l.rowHeight() - BAR_HEIGHT) / 2);
            bars(sb, t, axis, l, shown, used, overlapping, devices.get(i), barTop);
        }
        sb.append("</svg>\n");
    }

    private static void bars(StringBuilder sb, Timeline t, BrokenTimeAxis axis, Layout l, List<Span> shown, Set<Phase> used,
            Set<String> overlapping, String device, int y) {
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
            boolean prep = t.preparation().contains(p);
            // a preparation bar during other devices' downtime: dashed outline, and the note under the figure says why
            boolean overlaps = prep && overlapping.contains(key(device, p));
            double x = axis.x(first);
            double w = Math.max(1.0, axis.x(last) - x);
            sb.append("<rect class=\"bar ").append(prep ? (overlaps ? "prep overlap" : "prep") : t.inDowntime(p) ? "down" : "other")
                    .append("\" x=\"").append(Html.num(x)).append("\" y=\"").append(y).append("\" width=\"").append(Html.num(w))
                    .append("\" height=\"").append(BAR_HEIGHT).append('"')
                    .append(prep ? " fill=\"url(#" + l.hatch() + ")\" stroke=\"" + Palette.INK + "\" stroke-width=\""
                            + (overlaps ? "1.5\" stroke-dasharray=\"4 2\"" : "0.5\"") : " fill=\"" + p.color() + "\"")
                    .append("><title>").append(Html.esc(device + " " + p.label() + ": " + Durations.ms(last - first) + " ms, "
                            + calls + (calls == 1 ? " call" : " calls") + (overlaps ? " (preparation during other devices' downtime,"
                            + " not downtime)" : prep ? " (preparation, not downtime)" : "")))
                    .append("</title></rect>\n");
        }
        for (Span s : shown) {
            if (s.device().equals(device) && s.failed()) {
                double x = axis.x(s.startNanos());
                double w = Math.max(3.0, axis.x(s.endNanos()) - x);
                sb.append("<rect class=\"fail\" x=\"").append(Html.num(x)).append("\" y=\"").append(y - 2)
                        .append("\" width=\"").append(Html.num(w)).append("\" height=\"").append(BAR_HEIGHT + 4)
                        .append("\" fill=\"none\" stroke=\"#d50000\" stroke-width=\"2\"><title>")
                        .append(Html.esc(device + " " + s.call() + " failed: " + s.errnoName())).append("</title></rect>\n");
            }
        }
    }

    /** Each collapsed stretch: a shaded band across the rows, labelled with what ran there and for how long. */
    private static void breaks(StringBuilder sb, BrokenTimeAxis axis, Timeline t, List<Span> shown, int top, int plotBottom) {
        for (BrokenTimeAxis.Segment b : axis.breaks()) {
            Set<String> phases = new LinkedHashSet<>();
            for (Span s : shown) {
                if (t.preparation().contains(s.phase()) && s.startNanos() < b.endNanos() && s.endNanos() > b.startNanos()) {
                    phases.add(s.phase().label());
                }
            }
            String what = String.join(", ", phases) + " " + Durations.ms(b.nanos()) + " ms";
            double mid = b.x() + b.width() / 2;
            sb.append("<g class=\"prep-gap\"><rect x=\"").append(Html.num(b.x())).append("\" y=\"").append(top)
                    .append("\" width=\"").append(Html.num(b.width())).append("\" height=\"").append(plotBottom - top)
                    .append("\" fill=\"#eeeeee\" stroke=\"").append(Palette.INK).append("\" stroke-dasharray=\"3 3\"><title>")
                    .append(Html.esc("destination preparation, not downtime: " + what + " (collapsed; not to scale)"))
                    .append("</title></rect>\n");
            sb.append("<text x=\"").append(Html.num(mid)).append("\" y=\"").append(top - 20)
                    .append("\" text-anchor=\"middle\" class=\"gap\">not downtime</text>\n");
            sb.append("<text x=\"").append(Html.num(mid)).append("\" y=\"").append(top - 6)
                    .append("\" text-anchor=\"middle\" class=\"tick\">").append(Html.esc(what)).append("</text>\n");
            // the axis break: two slanted strokes where the time axis is interrupted
            for (double dx : new double[] {-4, 4}) {
                sb.append("<line x1=\"").append(Html.num(mid + dx - 4)).append("\" y1=\"").append(plotBottom + 6)
                        .append("\" x2=\"").append(Html.num(mid + dx + 4)).append("\" y2=\"").append(plotBottom - 6)
                        .append("\" stroke=\"").append(Palette.INK).append("\" stroke-width=\"1.5\"/>\n");
            }
            sb.append("</g>\n");
        }
    }

    private static void ticks(StringBuilder sb, BrokenTimeAxis axis, Layout l, int top, int y) {
        for (BrokenTimeAxis.Segment s : axis.segments()) {
            if (!s.collapsed()) {
                sb.append("<line x1=\"").append(Html.num(s.x())).append("\" y1=\"").append(y).append("\" x2=\"")
                        .append(Html.num(s.x() + s.width())).append("\" y2=\"").append(y).append("\" stroke=\"")
                        .append(Palette.INK).append("\"/>\n");
            }
        }
        double spanMs = axis.scaledNanos() / 1e6;
        double step = niceStep(spanMs / l.ticks());
        for (double ms = 0; ms <= spanMs + 1e-9; ms += step) {
            double x = axis.xAtScaled(Math.round(ms * 1e6));
            sb.append("<line x1=\"").append(Html.num(x)).append("\" y1=\"").append(top).append("\" x2=\"").append(Html.num(x))
                    .append("\" y2=\"").append(y + 4).append("\" stroke=\"#e0e0e0\"/>\n");
            sb.append("<text x=\"").append(Html.num(x)).append("\" y=\"").append(y + 17).append("\" text-anchor=\"middle\" class=\"tick\">")
                    .append(Html.esc(trim(ms))).append("</text>\n");
        }
        sb.append("<text x=\"").append(l.plotLeft() + l.plotWidth()).append("\" y=\"").append(y + 35)
                .append("\" text-anchor=\"end\" class=\"tick\">")
                .append(axis.breaks().isEmpty() ? "ms from the first suspend" : "ms of downtime from the first suspend (preparation collapsed)")
                .append("</text>\n");
    }

    /** The tick labels of {@link #ticks} once more, above the rows, at baseline {@code y} (the first one says the unit). */
    private static void topTicks(StringBuilder sb, BrokenTimeAxis axis, Layout l, int y) {
        double spanMs = axis.scaledNanos() / 1e6;
        double step = niceStep(spanMs / l.ticks());
        for (double ms = 0; ms <= spanMs + 1e-9; ms += step) {
            double x = axis.xAtScaled(Math.round(ms * 1e6));
            sb.append("<text x=\"").append(Html.num(x)).append("\" y=\"").append(y).append(ms == 0 ? "\" text-anchor=\"start"
                    : "\" text-anchor=\"middle").append("\" class=\"tick top-axis\">").append(Html.esc(ms == 0 ? "0 ms" : trim(ms)))
                    .append("</text>\n");
        }
    }

    /** The legend as HTML under the figure, so that it wraps and stays legible on a narrow screen. */
    private static void legend(StringBuilder sb, Timeline t, Set<Phase> used) {
        sb.append("<figcaption class=\"legend\">");
        for (Phase p : used) {
            boolean prep = t.preparation().contains(p);
            sb.append("<span class=\"key\">").append(prep ? "<span class=\"swatch hatched\">"
                    : "<span class=\"swatch\" style=\"background:" + p.color() + "\">").append("</span>").append(Html.esc(p.label()))
                    .append(prep ? " (preparation, not downtime)" : "").append("</span> ");
        }
        sb.append("</figcaption>\n");
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

    static String trim(double ms) {
        if (ms == Math.rint(ms)) {
            return String.valueOf((long) ms);
        }
        return String.format(Locale.ROOT, "%.3g", ms);
    }
}
