package org.vdpactl.spec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds citations of the docs/spec pages ("kernel-abi.md §5.3", "mlx5-model.md §4.5.1-§4.5.3",
 * "kernel-abi.md section 2", "mlx5-model.md 4.5.6") in source text, and the section numbers a page
 * defines ("### 5.3 Handler"). A file that cites exactly one page with a section number also has its
 * bare references ("(§3.6)", "§5 #18") read against that page, because that is how its comments use them.
 */
final class SpecCitations {
    static final List<String> PAGES = List.of("kernel-abi", "mlx5-model", "verified-device", "verified-netlink", "anchors");

    private static final String NUMBER = "\\d+(?:\\.\\d+)*";
    /** A page name, then its first section ("§N", "section N" or a bare "N.M"), then more "§N" joined by - – , / and. */
    private static final Pattern CITATION = Pattern.compile(
            "\\b(" + String.join("|", PAGES) + ")\\.md`?(?:\\s*(?:§\\s*|section\\s+)(" + NUMBER + ")|\\s+(\\d+\\.\\d+(?:\\.\\d+)*))?"
                    + "((?:\\s*(?:[-–,/]|and|or)\\s*§\\s*" + NUMBER + ")*)");
    private static final Pattern PAGE_MENTION = Pattern.compile("\\b(" + String.join("|", PAGES) + ")\\.md\\b");
    private static final Pattern CHAINED = Pattern.compile("([-–,/]|and|or)\\s*§\\s*(" + NUMBER + ")");
    private static final Pattern BARE = Pattern.compile("§\\s*(" + NUMBER + ")");
    private static final Pattern HEADING = Pattern.compile("^#{2,4}\\s+(" + NUMBER + ")\\.?\\s.*");

    private SpecCitations() {}

    /** One cited section of one page, where it was cited. */
    record Citation(String page, String section, String where) {}

    /** The section numbers a page defines through its headings. */
    static Set<String> sections(String markdown) {
        Set<String> out = new LinkedHashSet<>();
        for (String line : markdown.split("\n")) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** Pages named anywhere in {@code text}, with or without a section. */
    static Set<String> pagesMentioned(String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = PAGE_MENTION.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /**
     * Every section {@code text} cites, ranges expanded; {@code file} only labels the results. Bare "§N"
     * references are read against {@code bareDefault}, or, when that is null, against the one page the
     * text cites with a section (none if it cites several or none).
     */
    static List<Citation> citations(String file, String text, String bareDefault) {
        List<Citation> out = new ArrayList<>();
        Set<String> pagesWithSections = new LinkedHashSet<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String where = file + ":" + (i + 1);
            Matcher m = CITATION.matcher(lines[i]);
            while (m.find()) {
                String first = m.group(2) != null ? m.group(2) : m.group(3);
                if (first == null) {
                    continue;
                }
                String page = m.group(1);
                pagesWithSections.add(page);
                String previous = first;
                add(out, page, first, where);
                Matcher chained = CHAINED.matcher(m.group(4));
                while (chained.find()) {
                    String next = chained.group(2);
                    if (isRangeDash(chained.group(1))) {
                        for (String between : between(previous, next)) {
                            add(out, page, between, where);
                        }
                    }
                    add(out, page, next, where);
                    previous = next;
                }
            }
        }
        String page = bareDefault != null ? bareDefault
                : pagesWithSections.size() == 1 ? pagesWithSections.iterator().next() : null;
        if (page != null) {
            for (int i = 0; i < lines.length; i++) {
                Matcher m = BARE.matcher(withoutCitations(lines[i]));
                while (m.find()) {
                    add(out, page, m.group(1), file + ":" + (i + 1) + " (bare)");
                }
            }
        }
        return out;
    }

    /** The line with every page citation blanked out, so that only bare references remain. */
    private static String withoutCitations(String line) {
        Matcher m = CITATION.matcher(line);
        StringBuilder sb = new StringBuilder(line);
        while (m.find()) {
            for (int k = m.start(); k < m.end(); k++) {
                sb.setCharAt(k, ' ');
            }
        }
        return sb.toString();
    }

    private static void add(List<Citation> out, String page, String section, String where) {
        out.add(new Citation(page, section, where));
    }

    private static boolean isRangeDash(String joiner) {
        return joiner.equals("-") || joiner.equals("–");
    }

    /** The sections strictly between {@code from} and {@code to} when they differ only in their last number. */
    static List<String> between(String from, String to) {
        String[] a = from.split("\\.");
        String[] b = to.split("\\.");
        List<String> out = new ArrayList<>();
        if (a.length != b.length) {
            return out;
        }
        for (int k = 0; k < a.length - 1; k++) {
            if (!a[k].equals(b[k])) {
                return out;
            }
        }
        String prefix = from.contains(".") ? from.substring(0, from.lastIndexOf('.') + 1) : "";
        int lo = Integer.parseInt(a[a.length - 1]);
        int hi = Integer.parseInt(b[b.length - 1]);
        for (int n = lo + 1; n < hi; n++) {
            out.add(prefix + n);
        }
        return out;
    }
}
