package org.vdpactl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/library.md's module table against the build: a library module's row names its JPMS module and every
 * package its module-info exports to everyone, and its "depends on" cell lists exactly the module's compile
 * dependencies from its pom, in the pom's order (the cell said "abi, HdrHistogram" for a client that also
 * depends on slf4j-api and Jackson).
 */
class LibraryPageModuleTableTest {
    /** How the page names a dependency's artifact. */
    private static final Map<String, String> NAMES = Map.of("vdpactl-abi", "abi", "vdpactl-client", "client",
            "vdpactl-fake", "fake", "vdpactl-orchestra", "orchestra", "jackson-databind", "Jackson");

    @ParameterizedTest
    @ValueSource(strings = {"abi", "client", "orchestra", "fake", "testkit", "report"})
    void theRowOfALibraryModuleIsWhatItsPomAndModuleInfoSay(String module) throws IOException {
        Path root = RepositoryRoot.find();
        String page = Files.readString(root.resolve("docs/library.md"));
        Matcher row = Pattern.compile("(?m)^\\| `vdpactl-" + module + "` \\(`src/" + module + "`\\) \\| `([^`]+)` \\| (.*) \\| (.*) \\|$").matcher(page);
        assertTrue(row.find(), "a row for vdpactl-" + module);
        String moduleInfo = Files.readString(root.resolve("src/" + module + "/src/main/java/module-info.java"));
        Matcher name = Pattern.compile("(?m)^module (\\S+) \\{").matcher(moduleInfo);
        assertTrue(name.find());
        assertEquals(name.group(1), row.group(1), "the JPMS module");
        Matcher export = Pattern.compile("(?m)^\\s*exports (\\S+);").matcher(moduleInfo);
        while (export.find()) {
            assertTrue(row.group(2).contains("`" + export.group(1) + "`"), "the row names the exported package " + export.group(1));
        }

        String cell = row.group(3).replaceFirst(" \\(.*$", "");
        assertEquals(compileDependencies(Files.readString(root.resolve("src/" + module + "/pom.xml"))), List.of(cell.split(", ")),
                "the dependencies of vdpactl-" + module + " (the cell before any parenthesis)");
    }

    private static List<String> compileDependencies(String pom) {
        Set<String> out = new LinkedHashSet<>();
        String dependencies = pom.contains("<build>") ? pom.substring(0, pom.indexOf("<build>")) : pom; // not the plugins'
        Matcher dep = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL).matcher(dependencies);
        while (dep.find()) {
            String d = dep.group(1);
            if (d.contains("<scope>test</scope>") || d.contains("<optional>true</optional>")) {
                continue;
            }
            Matcher a = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(d);
            assertTrue(a.find());
            out.add(NAMES.getOrDefault(a.group(1), a.group(1)));
        }
        return new ArrayList<>(out);
    }
}
