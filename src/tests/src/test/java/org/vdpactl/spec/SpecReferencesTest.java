package org.vdpactl.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.vdpactl.spec.SpecCitations.Citation;

/**
 * Every "kernel-abi.md §5.3"-style citation in the repository points at a section that docs/spec
 * defines, and nothing points at the research notes outside the repository.
 */
class SpecReferencesTest {
    private static final Path SPEC = Path.of("docs", "spec");
    private static final List<Path> ROOTS = List.of(Path.of("src"), Path.of("scripts"), Path.of("native-headers"),
            Path.of("jextract"), Path.of("docs"), Path.of("README.md"), Path.of("pom.xml"));
    /** Bare "§N" inside a spec page means that page; the verified-* pages number their rows by kernel-abi.md. */
    private static final Map<String, String> BARE_DEFAULT_OF_PAGE = Map.of(
            "kernel-abi", "kernel-abi", "mlx5-model", "mlx5-model",
            "verified-device", "kernel-abi", "verified-netlink", "kernel-abi");

    @Test
    void everyCitedSpecSectionExistsInDocsSpec() throws IOException {
        Map<String, Set<String>> sections = definedSections();
        List<String> broken = new ArrayList<>();
        int explicit = 0;
        for (Map.Entry<Path, String> f : textFiles().entrySet()) {
            for (Citation c : SpecCitations.citations(f.getKey().toString(), f.getValue(), bareDefault(f.getKey()))) {
                explicit += c.where().endsWith("(bare)") ? 0 : 1;
                Set<String> defined = sections.get(c.page());
                if (defined == null) {
                    broken.add(c.where() + ": " + c.page() + ".md does not exist in docs/spec");
                } else if (!defined.contains(c.section())) {
                    broken.add(c.where() + ": " + c.page() + ".md has no section §" + c.section());
                }
            }
        }
        assertEquals(List.of(), broken, "citations docs/spec cannot answer (a bare '§N' is read against the one page"
                + " its file cites with a section; write '<page>.md §N' to cite another)");
        // A parser that finds nothing would pass the check above vacuously; the code cites about 60 sections.
        assertTrue(explicit >= 50, "only " + explicit + " explicit citations found");
    }

    @Test
    void everyMentionedSpecPageExistsInDocsSpec() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Map.Entry<Path, String> f : textFiles().entrySet()) {
            for (String page : SpecCitations.pagesMentioned(f.getValue())) {
                if (!Files.isRegularFile(SPEC.resolve(page + ".md"))) {
                    missing.add(f.getKey() + ": " + page + ".md");
                }
            }
        }
        assertEquals(List.of(), missing, "pages mentioned but absent from docs/spec");
    }

    @Test
    void nothingCitesTheNotesOutsideTheRepository() throws IOException {
        String outside = "shared" + "/spec"; // split so that this file does not match itself
        List<String> hits = new ArrayList<>();
        for (Map.Entry<Path, String> f : textFiles().entrySet()) {
            String[] lines = f.getValue().split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].contains(outside) || lines[i].contains("../" + "shared")) {
                    hits.add(f.getKey() + ":" + (i + 1));
                }
            }
        }
        assertEquals(List.of(), hits, "cite docs/spec/<page>.md instead");
    }

    @Test
    void parserReadsChainsRangesSectionWordsAndBareReferences() {
        String text = String.join("\n",
                "a (kernel-abi.md §1-§3, verified-device.md) b",
                "c kernel-abi.md §2.1 / §5.1 and mlx5-model.md 4.5.6",
                "d mlx5-model.md §4.5.1–§4.5.3, then docs/spec/kernel-abi.md section 9",
                "e verified-device.md: no section here");
        List<String> got = SpecCitations.citations("t", text, null).stream()
                .map(c -> c.page() + " " + c.section()).toList();
        assertEquals(List.of("kernel-abi 1", "kernel-abi 2", "kernel-abi 3", "kernel-abi 2.1", "kernel-abi 5.1",
                "mlx5-model 4.5.6", "mlx5-model 4.5.1", "mlx5-model 4.5.2", "mlx5-model 4.5.3", "kernel-abi 9"), got);

        List<String> bare = SpecCitations.citations("t", "x mlx5-model.md §4.2\ny the errors of §5 #18 and §3.1", null)
                .stream().map(c -> c.page() + " " + c.section()).toList();
        assertEquals(List.of("mlx5-model 4.2", "mlx5-model 5", "mlx5-model 3.1"), bare);

        assertEquals(Set.of("0", "3", "3.6", "4.5.1"),
                SpecCitations.sections("# Title\n## 0. Sources\n## 3. Ioctls\n### 3.6 Per-vq\n#### 4.5.1 Suspend\n## Table\n"));
    }

    private static String bareDefault(Path file) {
        if (file.toString().replace('\\', '/').contains("org/vdpactl/fake/mlx5/")) {
            return "mlx5-model"; // the mlx5 model's code and tests cite its sections bare: "(§3.1)", "§5 #14"
        }
        if (!SPEC.equals(file.getParent())) {
            return null;
        }
        String name = file.getFileName().toString().replaceFirst("\\.md$", "");
        return BARE_DEFAULT_OF_PAGE.get(name);
    }

    private static Map<String, Set<String>> definedSections() throws IOException {
        Map<String, Set<String>> out = new HashMap<>();
        for (String page : SpecCitations.PAGES) {
            Path p = SPEC.resolve(page + ".md");
            if (Files.isRegularFile(p)) {
                out.put(page, SpecCitations.sections(Files.readString(p)));
            }
        }
        return out;
    }

    /** Every UTF-8 text file under the roots (build output and binary files skipped). */
    private static Map<Path, String> textFiles() throws IOException {
        Map<Path, String> out = new LinkedHashMap<>();
        for (Path root : ROOTS) {
            if (!Files.exists(root)) {
                continue;
            }
            try (Stream<Path> s = Files.walk(root)) {
                for (Path p : s.filter(Files::isRegularFile).filter(p -> !p.toString().contains("target")).sorted().toList()) {
                    try {
                        out.put(p, StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(Files.readAllBytes(p))).toString());
                    } catch (CharacterCodingException binary) {
                        // not text: nothing to cite from
                    }
                }
            }
        }
        return out;
    }
}
