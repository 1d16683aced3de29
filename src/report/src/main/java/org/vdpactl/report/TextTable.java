package org.vdpactl.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table: a header row and data rows, columns padded to their widest cell, numbers
 * right-aligned. Renders nothing fancy (no box characters) so it pastes into mails and tickets.
 */
public final class TextTable {
    private final List<String> header;
    private final boolean[] rightAligned;
    private final List<List<String>> rows = new ArrayList<>();

    /** Columns named {@code header}; a name starting with '&gt;' is right-aligned (the marker is dropped). */
    public TextTable(List<String> header) {
        this.header = new ArrayList<>();
        this.rightAligned = new boolean[header.size()];
        for (int i = 0; i < header.size(); i++) {
            String h = header.get(i);
            rightAligned[i] = h.startsWith(">");
            this.header.add(rightAligned[i] ? h.substring(1) : h);
        }
    }

    public TextTable row(List<String> cells) {
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException("row has " + cells.size() + " cells, table has " + header.size() + " columns");
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    public TextTable row(String... cells) {
        return row(List.of(cells));
    }

    public int rowCount() {
        return rows.size();
    }

    /** Column names (without the alignment marker). */
    public List<String> header() {
        return List.copyOf(header);
    }

    /** The data rows. */
    public List<List<String>> rows() {
        return List.copyOf(rows);
    }

    public boolean rightAligned(int column) {
        return rightAligned[column];
    }

    /** The table, each line ending in a newline. */
    public String render() {
        int[] width = new int[header.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = header.get(c).length();
            for (List<String> r : rows) {
                width[c] = Math.max(width[c], r.get(c).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, header, width);
        for (List<String> r : rows) {
            line(sb, r, width);
        }
        return sb.toString();
    }

    private void line(StringBuilder sb, List<String> cells, int[] width) {
        StringBuilder l = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            String v = cells.get(c);
            String pad = " ".repeat(width[c] - v.length());
            if (c > 0) {
                l.append("  ");
            }
            l.append(rightAligned[c] ? pad + v : v + pad);
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }
}
