package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * galaxy.yml gives no links (repository, documentation, homepage, issues) until the repository has a public address:
 * a link must neither guess a host nor lead to a placeholder domain that never resolves. The collection's README names
 * the documentation by its path in this repository, which must exist. The collection ships the repository's LICENSE.
 */
class AnsibleGalaxyLinksTest {
    static final Path COLLECTION = Path.of("ansible/ansible_collections/vdpactl/vdpa");

    @Test
    void galaxyGivesNoLinkUntilThereIsAPublicAddress() throws Exception {
        Map<String, String> links = new LinkedHashMap<>();
        for (String line : Files.readAllLines(COLLECTION.resolve("galaxy.yml"))) {
            for (String key : List.of("repository", "documentation", "homepage", "issues")) {
                if (line.startsWith(key + ":")) {
                    links.put(key, line.substring(key.length() + 1).strip());
                }
            }
        }
        assertEquals(Map.of(), links, "no public address of the repository exists (docs/fleet.md \"Publishing\")");
        String galaxy = Files.readString(COLLECTION.resolve("galaxy.yml"));
        assertTrue(!galaxy.contains(".invalid") && !galaxy.contains("://"), galaxy);
        assertTrue(Files.readString(Path.of("docs/fleet.md")).contains("### Publishing"));
    }

    @Test
    void theReadmesDocumentationPathsExist() throws Exception {
        String readme = Files.readString(COLLECTION.resolve("README.md"));
        Matcher m = Pattern.compile("\\bdocs/[a-z0-9-]+\\.md").matcher(readme);
        int found = 0;
        while (m.find()) {
            found++;
            assertTrue(Files.isRegularFile(Path.of(m.group())), "the README names " + m.group() + ", which does not exist");
        }
        assertTrue(found > 0, "the README names the documentation (docs/fleet.md)");
    }

    @Test
    void theCollectionShipsTheRepositorysLicense() throws Exception {
        assertEquals(Files.readString(Path.of("LICENSE")), Files.readString(COLLECTION.resolve("LICENSE")));
        assertTrue(Files.readString(Path.of("LICENSE")).contains("Apache License"));
        assertTrue(Files.readString(COLLECTION.resolve("galaxy.yml")).contains("  - Apache-2.0"));
    }
}
