package org.vdpactl.bench.report;

import java.util.List;
import java.util.Locale;

/** The little Markdown the report needs: tables and number formatting. */
final class Markdown {
    private final StringBuilder out = new StringBuilder();

    Markdown line(String s) {
        out.append(s).append('\n');
        return this;
    }

    Markdown blank() {
        out.append('\n');
        return this;
    }

    Markdown table(List<String> header, List<List<String>> rows) {
        out.append("| ").append(String.join(" | ", header)).append(" |\n");
        out.append("|").append("---|".repeat(header.size())).append('\n');
        for (List<String> r : rows) {
            out.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        return blank();
    }

    Markdown code(String lang, List<String> lines) {
        out.append("```").append(lang).append('\n');
        lines.forEach(l -> out.append(l).append('\n'));
        out.append("```\n");
        return blank();
    }

    /** Three significant digits at most, no exponent: 1.23, 12.3, 123, 1234. */
    static String num(double v) {
        double a = Math.abs(v);
        if (a >= 100 || a == 0) {
            return String.format(Locale.ROOT, "%.0f", v);
        } else if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        } else if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    static String ratio(double v) {
        return String.format(Locale.ROOT, "%.2fx", v);
    }

    static String percent(double v) {
        return String.format(Locale.ROOT, "%.0f %%", v * 100);
    }

    static String millionsPerSecond(double perSecond) {
        return String.format(Locale.ROOT, "%.2f M/s", perSecond / 1e6);
    }

    static String triple(Summary s) {
        return num(s.min()) + " / " + num(s.median()) + " / " + num(s.max());
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
