package org.vdpactl.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import org.vdpactl.orchestra.Span;

/**
 * The timeline's horizontal axis: time from the first shown call to the last, drawn to scale except
 * where only the destination's preparation runs (no downtime call at all). Such a stretch, when it is
 * long enough to matter (the 451 ms reset of mlx5-612 against a 48 ms downtime), is collapsed into a
 * fixed-width break, so that the downtime fills the chart and the preparation is shown apart. The
 * scaled time ("downtime ms") skips the breaks; a break keeps its real length for its label.
 */
final class BrokenTimeAxis {
    /** A stretch of time and its place on the axis. */
    record Segment(long startNanos, long endNanos, boolean collapsed, double x, double width) {
        long nanos() {
            return endNanos - startNanos;
        }

        double xOf(long t) {
            return x + (t - startNanos) * width / Math.max(1, nanos());
        }
    }

    /** Collapse a preparation-only stretch when it is longer than this share of the whole span. */
    private static final double COLLAPSE_SHARE = 0.10;

    private final List<Segment> segments;
    private final double scale;

    private BrokenTimeAxis(List<Segment> segments, double scale) {
        this.segments = List.copyOf(segments);
        this.scale = scale;
    }

    /**
     * @param spans        the calls drawn
     * @param preparation  which of them are preparation (not downtime)
     * @param x0           left end of the plot
     * @param width        plot width
     * @param breakWidth   width of each collapsed stretch
     */
    static BrokenTimeAxis of(List<Span> spans, Predicate<Span> preparation, double x0, double width, double breakWidth) {
        long t0 = spans.stream().mapToLong(Span::startNanos).min().orElse(0);
        long t1 = Math.max(t0 + 1, spans.stream().mapToLong(Span::endNanos).max().orElse(t0 + 1));
        List<long[]> raw = stretches(spans, preparation, t0, t1);
        long total = t1 - t0;
        int breaks = 0;
        long scaled = 0;
        for (long[] s : raw) {
            if (s[2] == 1 && s[1] - s[0] > COLLAPSE_SHARE * total) {
                breaks++;
            } else {
                s[2] = 0;
                scaled += s[1] - s[0];
            }
        }
        double scale = (width - breaks * breakWidth) / Math.max(1, scaled);
        List<Segment> out = new ArrayList<>();
        double x = x0;
        for (long[] s : raw) {
            boolean collapsed = s[2] == 1;
            double w = collapsed ? breakWidth : (s[1] - s[0]) * scale;
            out.add(new Segment(s[0], s[1], collapsed, x, w));
            x += w;
        }
        return new BrokenTimeAxis(out, scale);
    }

    /** [start, end, 1 when only preparation runs] runs from t0 to t1, neighbours of the same kind merged. */
    private static List<long[]> stretches(List<Span> spans, Predicate<Span> preparation, long t0, long t1) {
        List<long[]> events = new ArrayList<>(); // time, +1/-1, 1 for preparation
        for (Span s : spans) {
            int prep = preparation.test(s) ? 1 : 0;
            events.add(new long[] {s.startNanos(), 1, prep});
            events.add(new long[] {s.endNanos(), -1, prep});
        }
        events.sort(Comparator.comparingLong((long[] e) -> e[0]));
        List<long[]> out = new ArrayList<>();
        int prepOpen = 0;
        int otherOpen = 0;
        long at = t0;
        int i = 0;
        while (i < events.size()) {
            long t = events.get(i)[0];
            add(out, at, t, prepOpen > 0 && otherOpen == 0);
            while (i < events.size() && events.get(i)[0] == t) {
                long[] e = events.get(i++);
                if (e[2] == 1) {
                    prepOpen += (int) e[1];
                } else {
                    otherOpen += (int) e[1];
                }
            }
            at = t;
        }
        add(out, at, t1, false);
        return out;
    }

    private static void add(List<long[]> out, long start, long end, boolean prepOnly) {
        if (end <= start) {
            return;
        }
        long kind = prepOnly ? 1 : 0;
        if (!out.isEmpty() && out.getLast()[2] == kind && out.getLast()[1] == start) {
            out.getLast()[1] = end;
        } else {
            out.add(new long[] {start, end, kind});
        }
    }

    List<Segment> segments() {
        return segments;
    }

    List<Segment> breaks() {
        return segments.stream().filter(Segment::collapsed).toList();
    }

    /** The x of time {@code t}. */
    double x(long t) {
        for (Segment s : segments) {
            if (t <= s.endNanos()) {
                return s.xOf(Math.max(t, s.startNanos()));
            }
        }
        Segment last = segments.getLast();
        return last.x() + last.width();
    }

    /** The scaled time (breaks skipped) of the whole axis. */
    long scaledNanos() {
        return segments.stream().filter(s -> !s.collapsed()).mapToLong(Segment::nanos).sum();
    }

    /** The x at {@code nanos} of scaled time from the left end (a break is passed before the time after it). */
    double xAtScaled(long nanos) {
        long left = nanos;
        for (Segment s : segments) {
            if (s.collapsed()) {
                continue;
            }
            if (left <= s.nanos()) {
                return s.x() + left * scale;
            }
            left -= s.nanos();
        }
        Segment last = segments.getLast();
        return last.x() + last.width();
    }
}
