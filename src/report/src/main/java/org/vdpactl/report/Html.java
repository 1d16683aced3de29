package org.vdpactl.report;

import java.util.Locale;

/** Minimal XHTML-safe building shared by the reports: escaping, number formatting, the base style. */
public final class Html {
    /** The style every report starts from (page, headings, tables, the figures banner). */
    public static final String BASE_CSS = """
            html { -webkit-text-size-adjust: 100%; }
            body { font-family: sans-serif; margin: 24px; color: #212121; overflow-wrap: anywhere; }
            @media (max-width: 600px) { body { margin: 12px; } }
            svg { display: block; height: auto; }
            .scroll { max-width: 100%; overflow-x: auto; }
            td, th { overflow-wrap: normal; }
            h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
            table { border-collapse: collapse; margin: 8px 0; }
            th, td { border: 1px solid #e0e0e0; padding: 3px 8px; font-size: 13px; }
            td.n { text-align: right; font-variant-numeric: tabular-nums; }
            .banner { padding: 8px 12px; border-radius: 4px; font-weight: bold; }
            .measured { background: #e8f5e9; border: 1px solid #43a047; }
            """;

    private Html() {
    }

    /**
     * The start of a report page up to its opening body tag: a viewport that is the device's width (a phone
     * shows the page at its size instead of a shrunken desktop page), the title and the inline style.
     */
    public static String head(String title, String css) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>" + esc(title)
                + "</title>\n<style>\n" + css + "</style>\n</head>\n<body>\n";
    }

    /** Escapes text and attribute values (the output is well-formed XML as well as HTML). */
    public static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t') {
                        sb.append(' ');
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    /** A coordinate with one decimal, locale-independent. */
    public static String num(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
