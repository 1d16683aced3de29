package org.vdpactl.report.fleet;

import static org.vdpactl.report.Html.esc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.vdpactl.sys.InputFile;

/**
 * The fleet report's compatibility matrix, from {@code vdpactl migrate check --json} documents (one per
 * host pair, as the Ansible collection writes them): source host × destination host, the worst verdict
 * of the pair's devices in each cell, the reasons on hover and in a table below.
 *
 * @param hosts   every host that is a source or a destination, sorted
 * @param cells   one per checked host pair
 * @param reasons every blocker and warning of every checked device pair
 */
public record CompatibilityMatrix(List<String> hosts, List<Cell> cells, List<Reason> reasons) {

    /** @param verdict the worst verdict of the pair's devices: "compatible", "warnings" or "blocked" */
    public record Cell(String source, String destination, String verdict) {
    }

    /** @param kind "blocker" or "warning"; @param devices "SRC → DEST"; @param action what to do */
    public record Reason(String source, String destination, String devices, String kind, String id, String message, String action) {
    }

    /** Reads migrate-check documents; a file that is not one is refused with its name (exit 2). */
    public static CompatibilityMatrix read(List<Path> files) {
        ObjectMapper m = new ObjectMapper();
        Map<String, Cell> cells = new TreeMap<>();
        TreeSet<String> hosts = new TreeSet<>();
        List<Reason> reasons = new ArrayList<>();
        for (Path f : files) {
            JsonNode doc;
            try {
                doc = m.readTree(Files.readString(f));
            } catch (IOException e) {
                throw new BadFleetInputException(f + ": " + (e instanceof JsonProcessingException
                        ? "not a JSON document (" + e.getClass().getSimpleName() + ")"
                        : "cannot read it (" + InputFile.reason(e) + ")"), e);
            }
            if (doc == null || !"vdpactl.migrate-check".equals(doc.path("schema").asText()) || doc.path("schema_version").asInt() != 1
                    || !doc.path("pairs").isArray()) {
                throw new BadFleetInputException(f + ": not a vdpactl.migrate-check document of schema_version 1"
                        + " (vdpactl migrate check --json writes one)");
            }
            String src = doc.at("/source/host").asText();
            String dst = doc.at("/destination/host").asText();
            hosts.add(src);
            hosts.add(dst);
            String key = src + "\u0000" + dst;
            Cell before = cells.get(key);
            String verdict = doc.path("verdict").asText();
            cells.put(key, new Cell(src, dst, before == null ? verdict : worse(before.verdict(), verdict)));
            for (JsonNode pair : doc.path("pairs")) {
                String devices = pair.path("source").asText() + " → " + pair.path("destination").asText();
                for (String kind : List.of("blockers", "warnings")) {
                    for (JsonNode finding : pair.path(kind)) {
                        reasons.add(new Reason(src, dst, devices, kind.equals("blockers") ? "blocker" : "warning",
                                finding.path("id").asText(), finding.path("message").asText(), finding.path("action").asText()));
                    }
                }
            }
        }
        return new CompatibilityMatrix(List.copyOf(hosts), List.copyOf(cells.values()), List.copyOf(reasons));
    }

    static String worse(String a, String b) {
        return rank(a) >= rank(b) ? a : b;
    }

    private static int rank(String v) {
        return switch (v) {
            case "blocked" -> 2;
            case "warnings" -> 1;
            default -> 0;
        };
    }

    private String verdict(String src, String dst) {
        return cells.stream().filter(c -> c.source().equals(src) && c.destination().equals(dst)).map(Cell::verdict).findFirst()
                .orElse(null);
    }

    private List<Reason> reasonsOf(String src, String dst) {
        return reasons.stream().filter(r -> r.source().equals(src) && r.destination().equals(dst)).toList();
    }

    /** The CSS of the matrix, for the fleet report's head. */
    public static final String CSS = """
            td.v-compatible { background: #e8f5e9; } td.v-warnings { background: #fff3e0; } td.v-blocked { background: #ffebee; }
            td.v-none { color: #9e9e9e; } table.matrix td { text-align: center; }
            """;

    /** The matrix as an HTML section: the table (reasons on hover), then the reasons table. */
    public String html() {
        StringBuilder sb = new StringBuilder();
        sb.append("<h2>Migration compatibility (source row → destination column, worst verdict of the device pairs)</h2>\n");
        sb.append("<div class=\"scroll\"><table class=\"matrix\">\n<tr><th>from \\ to</th>");
        for (String h : hosts) {
            sb.append("<th>").append(esc(h)).append("</th>");
        }
        sb.append("</tr>\n");
        for (String src : hosts) {
            sb.append("<tr><th>").append(esc(src)).append("</th>");
            for (String dst : hosts) {
                String v = verdict(src, dst);
                if (v == null) {
                    sb.append("<td class=\"v-none\">").append(src.equals(dst) ? "" : "not checked").append("</td>");
                    continue;
                }
                StringBuilder title = new StringBuilder();
                for (Reason r : reasonsOf(src, dst)) {
                    title.append(r.devices()).append(": ").append(r.kind()).append(" ").append(r.id()).append('\n');
                }
                sb.append("<td class=\"v-").append(esc(v)).append("\" title=\"").append(esc(title.toString().strip())).append("\">")
                        .append(esc(v)).append("</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</table></div>\n");
        if (!reasons.isEmpty()) {
            sb.append("<h2>Why (blockers and warnings per device pair)</h2>\n<div class=\"scroll\"><table class=\"reasons\">\n")
                    .append("<tr><th>from</th><th>to</th><th>devices</th><th>kind</th><th>id</th><th>what</th><th>what to do</th></tr>\n");
            for (Reason r : reasons) {
                sb.append("<tr class=\"").append(esc(r.kind())).append("\"><td>").append(esc(r.source())).append("</td><td>")
                        .append(esc(r.destination())).append("</td><td>").append(esc(r.devices())).append("</td><td>").append(esc(r.kind()))
                        .append("</td><td>").append(esc(r.id())).append("</td><td>").append(esc(r.message())).append("</td><td>")
                        .append(esc(r.action())).append("</td></tr>\n");
            }
            sb.append("</table></div>\n");
        }
        return sb.toString();
    }

    /** The matrix as text: one line per host pair, then one per reason. */
    public String text() {
        StringBuilder sb = new StringBuilder("\nMigration compatibility (worst verdict of the device pairs):\n");
        for (Cell c : cells) {
            sb.append("  ").append(c.source()).append(" → ").append(c.destination()).append(": ").append(c.verdict()).append('\n');
        }
        for (Reason r : reasons) {
            sb.append("  ").append(r.source()).append(" → ").append(r.destination()).append(", ").append(r.devices()).append(": ")
                    .append(r.kind()).append(' ').append(r.id()).append(": ").append(r.message()).append("; do: ").append(r.action())
                    .append('\n');
        }
        return sb.toString();
    }
}
