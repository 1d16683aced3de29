package org.vdpactl.report;

/** Minimal XHTML-safe building: escaping and number formatting for attributes. */
final class Html {
    private Html() {
    }

    /** Escapes text and attribute values (the output is well-formed XML as well as HTML). */
    static String esc(String s) {
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
    static String num(double v) {
        return String.format(java.util.Locale.ROOT, "%.1f", v);
    }
}
