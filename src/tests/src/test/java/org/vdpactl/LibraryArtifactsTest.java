package org.vdpactl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * What vdpactl publishes (issue 32 item 11): a BOM with the versions of its library artifacts and nothing else,
 * importable without overriding a user's versions of anything (so it has no parent: an import brings the whole
 * effective dependencyManagement, and the parent's pins picocli, ASM, jqwik, JMH and JUnit); and no jar that is
 * not a library (the CLI, the build tools, the tests) in {@code mvn install} or a deploy.
 */
class LibraryArtifactsTest {
    /** The library modules (docs/library.md's table): what the BOM manages and what install/deploy publish. */
    private static final List<String> LIBRARIES = List.of("vdpactl-abi", "vdpactl-client", "vdpactl-orchestra", "vdpactl-fake",
            "vdpactl-testkit", "vdpactl-report", "vdpactl-sim");
    private static final Path ROOT = RepositoryRoot.find();

    @Test
    void theBomManagesTheLibraryArtifactsOnlyAtTheProjectsVersionAndHasNoParent() throws IOException {
        String bom = pom(ROOT.resolve("src/bom/pom.xml"));
        String parent = pom(ROOT.resolve("pom.xml"));
        assertFalse(bom.contains("<parent>"), "an imported BOM with vdpactl-parent as parent would bring the parent's pins");
        assertEquals(first(parent, "<version>([^<]+)</version>"), first(bom, "<version>([^<]+)</version>"), "the BOM's version");
        assertEquals("vdpactl-bom", first(bom, "<artifactId>([^<]+)</artifactId>"));
        String managed = bom.substring(bom.indexOf("<dependencyManagement>"), bom.indexOf("</dependencyManagement>"));
        List<String> artifacts = new ArrayList<>();
        Matcher d = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL).matcher(managed);
        while (d.find()) {
            assertEquals("org.vdpactl", first(d.group(1), "<groupId>([^<]+)</groupId>"), d.group(1));
            assertEquals("${project.version}", first(d.group(1), "<version>([^<]+)</version>"), d.group(1));
            artifacts.add(first(d.group(1), "<artifactId>([^<]+)</artifactId>"));
        }
        assertEquals(LIBRARIES, artifacts);
        assertTrue(modules().contains("src/bom"), "the BOM is built (and installed) with the project");
    }

    @Test
    void onlyTheLibraryModulesAndTheBomAreInstalledOrDeployed() throws IOException {
        List<String> published = new ArrayList<>();
        for (String module : modules()) {
            String pom = pom(ROOT.resolve(module).resolve("pom.xml"));
            String artifact = first(pom.replaceFirst("(?s)<parent>.*?</parent>", ""), "<artifactId>([^<]+)</artifactId>");
            boolean skipsInstall = pom.contains("<maven.install.skip>true</maven.install.skip>");
            boolean skipsDeploy = pom.contains("<maven.deploy.skip>true</maven.deploy.skip>");
            assertEquals(skipsInstall, skipsDeploy, module + ": install and deploy publish the same artifacts");
            if (!skipsInstall) {
                published.add(artifact);
            }
        }
        List<String> expected = new ArrayList<>(LIBRARIES);
        expected.add("vdpactl-bom");
        assertEquals(expected.stream().sorted().toList(), published.stream().sorted().toList(),
                "the modules mvn install and deploy publish (the parent pom is published as the libraries' parent)");
    }

    private static List<String> modules() throws IOException {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(pom(ROOT.resolve("pom.xml")));
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** A pom without its comments (which quote elements). */
    private static String pom(Path file) throws IOException {
        return Files.readString(file).replaceAll("(?s)<!--.*?-->", "");
    }

    private static String first(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), regex + " in " + text);
        return m.group(1);
    }
}
