package org.vdpactl.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.vdpactl.orchestra.Percentiles;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The histograms of the HTML report when there is no range to bin: every iteration the same (the fake's virtual
 * clock) and a single iteration give one bar in the middle with its count, the value written under it and the
 * percentiles marked; a spread still gets its bins, min and max. The browser test (ReportInBrowserTest) checks the
 * same in Chromium's layout.
 */
class SvgHistogramTest {
    /** 41.22 ms, the mlx5-612 downtime of the virtual clock. */
    private static final long VALUE = 41_220_000;

    private static Element render(long... values) throws Exception {
        Histogram h = new Histogram(3);
        for (long v : values) {
            h.recordValue(v);
        }
        String svg = SvgHistogram.render("downtime", h, Percentiles.of(h), Palette.DOWNTIME);
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
    }

    private static List<Element> byClass(Element svg, String tag, String cls) {
        List<Element> out = new ArrayList<>();
        NodeList all = svg.getElementsByTagName(tag);
        for (int i = 0; i < all.getLength(); i++) {
            Element e = (Element) all.item(i);
            if (List.of(e.getAttribute("class").split(" ")).contains(cls)) {
                out.add(e);
            }
        }
        return out;
    }

    private static double num(Element e, String attribute) {
        return Double.parseDouble(e.getAttribute(attribute));
    }

    private static List<String> texts(List<Element> elements) {
        return elements.stream().map(e -> e.getTextContent().strip()).toList();
    }

    /** Checks the one-value chart of {@code count} equal values and returns the axis caption. */
    private static String assertOneBarInTheMiddle(int count) throws Exception {
        long[] values = new long[count];
        Arrays.fill(values, VALUE);
        Element svg = render(values);
        List<Element> bars = byClass(svg, "rect", "bin");
        assertEquals(1, bars.size(), "one bar");
        Element axis = byClass(svg, "line", "axis").get(0);
        double axisLeft = num(axis, "x1");
        double axisWidth = num(axis, "x2") - axisLeft;
        Element bar = bars.get(0);
        double center = num(bar, "x") + num(bar, "width") / 2;
        assertEquals(axisLeft + axisWidth / 2, center, 1.0, "the bar stands in the middle of the axis");
        assertTrue(num(bar, "width") >= axisWidth / 10, "the bar is wide enough to see: " + num(bar, "width"));
        List<Element> counts = byClass(svg, "text", "count");
        assertTrue(texts(counts).contains(Integer.toString(count)), "the bar's count: " + texts(counts));
        assertEquals(List.of("41.22"), texts(byClass(svg, "text", "xtick")), "the value, once, under the bar");
        List<Element> marks = byClass(svg, "g", "pct");
        assertEquals(1, marks.size(), "the percentiles share one mark");
        Element mark = (Element) marks.get(0).getElementsByTagName("line").item(0);
        assertEquals(center, num(mark, "x1"), 1.0, "the percentiles are marked at the bar");
        assertTrue(marks.get(0).getTextContent().startsWith("p50 = p90 = p99"), marks.get(0).getTextContent());
        assertTrue(num(mark, "y2") < num(bar, "y") - 9, "the mark stops above the bar's count");
        NodeList all = svg.getElementsByTagName("text");
        return all.item(all.getLength() - 1).getTextContent();
    }

    @Test
    void everyIterationTheSameIsOneBarWithItsCountAndItsValue() throws Exception {
        assertEquals("ms (12 iterations, all equal)", assertOneBarInTheMiddle(12));
    }

    @Test
    void aSingleIterationIsOneBarWithItsValue() throws Exception {
        assertEquals("ms (1 iteration)", assertOneBarInTheMiddle(1));
    }

    @Test
    void roundValuesBetweenTheEndsAreMultiplesOfOneTwoOrFiveAboutFourIntervalsApart() {
        assertEquals(List.of(10_000_000L, 15_000_000L, 20_000_000L, 25_000_000L, 30_000_000L),
                SvgHistogram.roundValuesBetween(9_990_000, 30_010_000));
        assertEquals(List.of(42_000_000L, 44_000_000L, 46_000_000L), SvgHistogram.roundValuesBetween(41_200_000, 47_900_000));
        assertEquals(List.of(), SvgHistogram.roundValuesBetween(5, 7));
    }

    @Test
    void aSpreadKeepsItsBinsMinAndMax() throws Exception {
        Element svg = render(10_000_000, 10_000_000, 20_000_000, 30_000_000);
        assertEquals(3, byClass(svg, "rect", "bin").size());
        Histogram h = new Histogram(3);
        h.recordValue(10_000_000);
        h.recordValue(30_000_000);
        // the ends, then round values between them: a bar is placed without interpolating between the ends
        assertEquals(List.of(Durations.ms(h.getMinValue()), Durations.ms(h.getMaxValue()), "15.00", "20.00", "25.00"),
                texts(byClass(svg, "text", "xtick")));
        List<Double> xs = byClass(svg, "text", "xtick").stream().map(e -> num(e, "x")).sorted().toList();
        for (int i = 1; i < xs.size(); i++) {
            assertTrue(xs.get(i) - xs.get(i - 1) >= 36, "labels apart: " + xs);
        }
        // p50 at 10 ms; p90 and p99 both at 30 ms share one mark
        assertEquals(List.of("p50", "p90 = p99"), byClass(svg, "g", "pct").stream()
                .map(g -> g.getElementsByTagName("text").item(0).getTextContent()).toList());
    }
}
