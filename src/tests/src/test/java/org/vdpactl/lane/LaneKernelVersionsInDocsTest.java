package org.vdpactl.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.vdpactl.RepositoryRoot;

/**
 * What the documents say the lane runs is what its records say it ran: a sentence naming the lane's kernel
 * ("the lane runs 6.1.N", "the lane's 6.1.N", "boot the lane: … `linux-source-6.1` 6.1.N-M") names the release of
 * the committed lane record (docs/lane-records/ID.json, {@code kernel.source_package_version}), never an older one.
 * What a kernel the lane ran before said (a source read in 6.1.176) stays history and is not matched.
 */
class LaneKernelVersionsInDocsTest {
    /** "the lane runs 6.1.176", "the VM lane runs 6.1.176-1", "the lane's 6.1.176". */
    static final Pattern LANE_RUNS = Pattern.compile("lane(?: runs|'s)\\s+(\\d+\\.\\d+\\.\\d+)(-[\\w.~+]+)?");
    /** "6.1.176-1 (the lane's 6.1)". */
    static final Pattern LANES_OWN = Pattern.compile("(\\d+\\.\\d+\\.\\d+)(-[\\w.~+]+)? \\(the lane's");
    /** "`linux-source-6.1` 6.1.176-1" in the paragraph that says which kernels boot the lane (not a table of sources read). */
    static final Pattern SOURCE_PACKAGE = Pattern.compile("`linux-source-(\\d+\\.\\d+)`\\s+(\\d+\\.\\d+\\.\\d+)(-[\\w.~+]+)?");

    /** Series ("6.1") -> the record's Debian source version ("6.1.192-3"). */
    static Map<String, String> recorded(Path root) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        ObjectMapper json = new ObjectMapper();
        for (String id : List.of("6.1", "6.12", "sid")) {
            JsonNode kernel = json.readTree(root.resolve("docs/lane-records/" + id + ".json").toFile()).path("kernel");
            String version = kernel.path("source_package_version").asText();
            assertTrue(version.matches("\\d+\\.\\d+\\.\\d+-.+"), id + ": " + version);
            out.put(version.replaceAll("^(\\d+\\.\\d+)\\..*", "$1"), version);
        }
        return out;
    }

    /** Each claim of the text about the lane's kernel that the records contradict, with its line. */
    static List<String> contradictions(String text, Map<String, String> recorded) {
        List<String> out = new ArrayList<>();
        // a sentence may wrap: join the lines of a paragraph, keep the line breaks' places out of the match
        String joined = text.replace("\n", " ");
        for (Pattern p : List.of(LANE_RUNS, LANES_OWN)) {
            Matcher m = p.matcher(joined);
            while (m.find()) {
                check(m.group(1), m.group(2), recorded, m.group(), out);
            }
        }
        for (String paragraph : text.split("\n\\s*\n")) {
            if (!paragraph.replace("\n", " ").contains("boot the lane")) {
                continue;
            }
            Matcher m = SOURCE_PACKAGE.matcher(paragraph.replace("\n", " "));
            while (m.find()) {
                check(m.group(2), m.group(3), recorded, m.group(), out);
            }
        }
        return out;
    }

    private static void check(String release, String debianSuffix, Map<String, String> recorded, String claim, List<String> out) {
        String series = release.replaceAll("^(\\d+\\.\\d+)\\..*", "$1");
        String version = recorded.get(series);
        if (version == null) {
            return;
        }
        String recordedRelease = version.substring(0, version.indexOf('-'));
        boolean same = release.equals(recordedRelease) && (debianSuffix == null || version.equals(release + debianSuffix));
        if (!same) {
            out.add("'" + claim + "' but the lane record says " + version);
        }
    }

    @Test
    void theDocsNameTheKernelTheLaneRecordsSayTheLaneRan() throws IOException {
        Path root = RepositoryRoot.find();
        Map<String, String> recorded = recorded(root);
        List<String> found = new ArrayList<>();
        List<Path> files = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> s = Files.walk(root.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        for (Path md : files) {
            contradictions(Files.readString(md), recorded).forEach(c -> found.add(root.relativize(md) + ": " + c));
        }
        assertEquals(List.of(), found);
    }

    @Test
    void theCheckFindsAnOlderLaneKernel() {
        Map<String, String> recorded = Map.of("6.1", "6.1.192-3", "6.12", "6.12.118-1~deb12u1");
        assertEquals(1, contradictions("the VM lane runs 6.1.176-1, whose package", recorded).size());
        assertEquals(1, contradictions("of Debian's 6.1.176-1 (the lane's 6.1), 6.12", recorded).size());
        assertEquals(2, contradictions("boot the lane: Debian's `linux-source-6.1` 6.1.176-1, `linux-source-6.12`\n"
                + "6.12.117-1~deb12u1 and", recorded).size());
        assertEquals(List.of(), contradictions("boot the lane: `linux-source-6.1` 6.1.192-3, the lane's 6.12.118", recorded));
        assertEquals(List.of(), contradictions("read in 6.1.176 (drivers/vhost/vdpa.c:116)", recorded));
    }
}
