package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.vdpactl.RepositoryRoot;

/** The product's own text (help, messages, resources) never refers to the project's issue tracker. */
class NoIssueTrackerReferencesTest {
    private static final Pattern ISSUE = Pattern.compile("(?i)\\bissue (?:#?\\d+)|issue \\d+'s");

    @Test
    void noProductSourceNamesAnIssue() throws IOException {
        Path root = RepositoryRoot.find();
        List<String> found = new ArrayList<>();
        int files = 0;
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile)
                    .filter(p -> p.toString().replace('\\', '/').contains("/src/main/"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .toList()) {
                files++;
                String text = Files.readString(p, StandardCharsets.ISO_8859_1);
                var m = ISSUE.matcher(text);
                while (m.find()) {
                    found.add(root.relativize(p) + ": " + m.group());
                }
            }
        }
        assertTrue(files > 100, "found the product's sources: " + files);
        assertEquals(List.of(), found, "the product refers to the issue tracker");
    }
}
