package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * galaxy.yml's links are absolute and lead into this repository: the repository itself, then files of it (the
 * documentation, the README) under {@code blob/main/}, which must exist, and its issue tracker. No public address
 * of the repository is recorded anywhere, so their base is the documented placeholder in the reserved .invalid
 * domain until publication (docs/fleet.md, "Publishing"), never a guessed host. The collection ships the
 * repository's LICENSE.
 */
class AnsibleGalaxyLinksTest {
    static final Path COLLECTION = Path.of("ansible/ansible_collections/vdpactl/vdpa");
    /** The placeholder base, to be replaced at publication (RFC 2606: .invalid never resolves). */
    static final String PLACEHOLDER = "https://vdpactl.invalid/vdpactl";

    @Test
    void everyLinkIsAbsoluteAndItsPathExistsInTheRepository() throws Exception {
        Map<String, String> links = new LinkedHashMap<>();
        for (String line : Files.readAllLines(COLLECTION.resolve("galaxy.yml"))) {
            for (String key : List.of("repository", "documentation", "homepage", "issues")) {
                if (line.startsWith(key + ": ")) {
                    links.put(key, line.substring(key.length() + 2).strip());
                }
            }
        }
        assertEquals(List.of("repository", "documentation", "homepage", "issues"), List.copyOf(links.keySet()));
        String repository = links.get("repository");
        assertTrue(repository.matches("https://[^ ]+[^/]"), "absolute, no trailing slash: " + repository);
        // no public address is recorded (docs/fleet.md "Publishing" says where it will be set): no guessed host
        assertEquals(PLACEHOLDER, repository, "the repository's address is the placeholder until publication");
        assertTrue(Files.readString(Path.of("docs/fleet.md")).contains(PLACEHOLDER), "docs/fleet.md names the placeholder");
        assertEquals(repository + "/issues", links.get("issues"));
        for (String key : List.of("documentation", "homepage")) {
            String link = links.get(key);
            assertTrue(link.startsWith(repository + "/blob/main/"), key + " leads into the repository: " + link);
            Path file = Path.of(link.substring((repository + "/blob/main/").length()));
            assertTrue(Files.isRegularFile(file), key + ": no " + file + " in the repository");
        }
    }

    @Test
    void theCollectionShipsTheRepositorysLicense() throws Exception {
        assertEquals(Files.readString(Path.of("LICENSE")), Files.readString(COLLECTION.resolve("LICENSE")));
        assertTrue(Files.readString(Path.of("LICENSE")).contains("Apache License"));
        assertTrue(Files.readString(COLLECTION.resolve("galaxy.yml")).contains("  - Apache-2.0"));
    }
}
