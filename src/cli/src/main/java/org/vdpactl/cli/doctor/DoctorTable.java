package org.vdpactl.cli.doctor;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The doctor's checks as a table that keeps its columns at any length of text: the status, the title
 * (a title longer than its column puts the detail on the next line) and the detail wrapped at word
 * boundaries to the terminal's width ({@link #terminalWidth}), continued under itself; a fix hint follows
 * the same way. On a terminal too narrow for the title column, each title has its line and the detail
 * follows under it.
 */
final class DoctorTable {
    static final int DEFAULT_WIDTH = 100;
    private static final int STATUS_WIDTH = 6;
    private static final int TITLE_WIDTH = 35;
    private static final int MIN_DETAIL = 30;
    /** Narrower than this, a table of three columns cannot be read: wrapped at this width. */
    static final int MIN_WIDTH = 40;

    private final int width;

    DoctorTable(int width) {
        this.width = Math.max(MIN_WIDTH, width);
    }

    /** Too narrow for the title column beside a readable detail: each title gets its line, the detail goes under it. */
    private boolean narrow() {
        return width < STATUS_WIDTH + TITLE_WIDTH + MIN_DETAIL;
    }

    /**
     * The width to wrap at: COLUMNS when exported (the user's choice, as for ls), else the width of the terminal stdout
     * goes to ({@code terminal}), else {@value #DEFAULT_WIDTH} (a file or a pipe).
     */
    static int terminalWidth(String columns, OptionalInt terminal) {
        try {
            if (columns != null && !columns.isBlank()) {
                int c = Integer.parseInt(columns.strip());
                return c < MIN_WIDTH || c > 400 ? DEFAULT_WIDTH : c;
            }
        } catch (NumberFormatException e) {
            // not a number: as if unset
        }
        return terminal.isPresent() && terminal.getAsInt() > 0 ? Math.max(MIN_WIDTH, Math.min(400, terminal.getAsInt())) : DEFAULT_WIDTH;
    }

    void print(PrintWriter out, List<Check> checks) {
        // narrow: the detail two columns right of its title, which takes the title column's place
        String indent = " ".repeat(narrow() ? STATUS_WIDTH + 2 : STATUS_WIDTH + TITLE_WIDTH);
        int detailWidth = width - indent.length();
        for (Check c : checks) {
            String head = String.format("%-" + STATUS_WIDTH + "s", c.status());
            List<String> detail = wrap(c.detail(), detailWidth);
            if (narrow()) {
                List<String> title = wrap(c.title(), width - STATUS_WIDTH);
                for (int i = 0; i < title.size(); i++) {
                    out.println((i == 0 ? head : " ".repeat(STATUS_WIDTH)) + title.get(i));
                }
            } else if (c.title().length() < TITLE_WIDTH) {
                out.println(head + String.format("%-" + TITLE_WIDTH + "s", c.title()) + detail.getFirst());
                detail = detail.subList(1, detail.size());
            } else {
                out.println(head + c.title());
            }
            detail.forEach(l -> out.println(indent + l));
            if (c.hint() != null && c.status() != Check.Status.OK) {
                wrap("fix: " + c.hint(), detailWidth).forEach(l -> out.println(indent + l));
            }
        }
    }

    /**
     * {@code text} in lines of at most {@code width} characters, broken at spaces; a longer word (a list of
     * feature names joined by '|') is broken after a '|' or ','.
     */
    static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : words(text, width)) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (!line.isEmpty()) {
                line.append(' ');
            }
            line.append(word);
        }
        lines.add(line.toString());
        return lines;
    }

    private static List<String> words(String text, int width) {
        List<String> out = new ArrayList<>();
        for (String word : text.split(" ")) {
            while (word.length() > width) {
                int cut = Math.max(word.lastIndexOf('|', width - 1), word.lastIndexOf(',', width - 1));
                if (cut <= 0) {
                    break;
                }
                out.add(word.substring(0, cut + 1));
                word = word.substring(cut + 1);
            }
            out.add(word);
        }
        return out;
    }
}
