package org.vdpactl.cli.rehearse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.vdpactl.cli.Sizes;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.sys.InputFile;
import org.vdpactl.sys.InputKeys;

/**
 * Reads a guest memory layout from JSON ({@code --memory-layout FILE}):
 * <pre>
 * { "pageSize": "4K",
 *   "regions": [ { "iova": "0",  "size": "2G" },
 *                { "iova": "4G", "size": "254G", "split": "1G", "pageSize": "2M" } ] }
 * </pre>
 * Sizes take the CLI's units (4096, 4K, 2M, 1G) or JSON integers; {@code iova} also "0x…" hex. {@code split} cuts a
 * region into regions of that size (the last one shorter); {@code page_size} defaults to the
 * top-level one, else 4 KiB. Gaps between regions are holes.
 *
 * <p>Keys are snake_case, as in every document vdpactl prints: {@code page_size}. The camelCase
 * {@code pageSize} of earlier releases is still read (giving both is refused). The file may also be the
 * bare list of regions that a rehearsal document prints as {@code plan.memory}
 * ({@code [{"iova": 0, "size": 2147483648, "page_size": 4096}, ...]}), so a rehearsed layout feeds back
 * into the next rehearsal unchanged.
 */
public final class MemoryLayoutFile {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> TOP = Set.of("page_size", "regions", "comment");
    private static final Set<String> REGION = Set.of("iova", "size", "split", "page_size", "comment");
    /** The spelling of earlier releases, still read: camelCase key -> its snake_case name. */
    private static final Map<String, String> OLD_KEYS = Map.of("pageSize", "page_size");

    private MemoryLayoutFile() {
    }

    public static GuestMemoryLayout read(Path file) {
        try {
            return parse(InputFile.readUtf8(file), file.toString());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read memory layout " + file + ": " + InputFile.reason(e), e);
        }
    }

    static GuestMemoryLayout parse(String json, String source) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException(source + ": not valid JSON: " + e.getMessage(), e);
        }
        if (root != null && root.isArray()) {
            // plan.memory of a rehearsal document: the regions themselves
            root = JSON.createObjectNode().set("regions", root);
        }
        if (root == null || !root.isObject() || !root.path("regions").isArray()) {
            throw new IllegalArgumentException(source + ": expected an object with a \"regions\" array, or an array of regions");
        }
        root = snakeCase(root, source);
        checkFields(root, TOP, source);
        long defaultPage = root.has("page_size") ? Sizes.parse(root.get("page_size").asText(), source + " page_size") : 4096;
        List<GuestMemoryLayout.Region> regions = new ArrayList<>();
        int i = 0;
        for (JsonNode r : root.get("regions")) {
            String where = source + " region #" + (++i);
            if (!r.isObject() || !r.has("size") || !r.has("iova")) {
                throw new IllegalArgumentException(where + ": needs \"iova\" and \"size\"");
            }
            r = snakeCase(r, where);
            checkFields(r, REGION, where);
            long iova = address(r.get("iova").asText(), where);
            long size = Sizes.parse(r.get("size").asText(), where + " size");
            long page = r.has("page_size") ? Sizes.parse(r.get("page_size").asText(), where + " page_size") : defaultPage;
            long split = r.has("split") ? Sizes.parse(r.get("split").asText(), where + " split") : size;
            try {
                for (long off = 0; off < size; off += split) {
                    regions.add(new GuestMemoryLayout.Region(iova + off, Math.min(split, size - off), page));
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
            }
        }
        try {
            return new GuestMemoryLayout(regions);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
    }

    /** The object with the earlier camelCase keys renamed ({@link InputKeys}). */
    private static JsonNode snakeCase(JsonNode n, String where) {
        try {
            return InputKeys.snakeCase(n, OLD_KEYS);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static void checkFields(JsonNode n, Set<String> known, String where) {
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                throw new IllegalArgumentException(where + ": unknown field \"" + f + "\" (known: " + known + ")");
            }
        }
    }

    private static long address(String text, String where) {
        String t = text.trim();
        if (t.equals("0")) {
            return 0;
        }
        if (t.startsWith("0x") || t.startsWith("0X")) {
            try {
                return Long.parseUnsignedLong(t.substring(2), 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + ": iova '" + text + "' is not a hex address", e);
            }
        }
        return Sizes.parse(t, where + " iova");
    }
}
