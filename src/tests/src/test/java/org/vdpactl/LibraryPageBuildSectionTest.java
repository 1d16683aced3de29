package org.vdpactl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * docs/library.md's build section is what a stranger copies (issue 32 item 1: on Maven 3.8 the two bare
 * dependencies gave "Source option 5" and then "Tests run: 0" with BUILD SUCCESS). Every property, dependency
 * and plugin it shows is in examples/suspend-policy/pom.xml with the same value, which scripts/test builds and
 * tests; and its versions are vdpactl's own build's.
 */
class LibraryPageBuildSectionTest {
    private static final Path ROOT = RepositoryRoot.find();

    @Test
    void everyElementOfThePagesPomIsInTheExamplesPom() throws Exception {
        Element page = snippet();
        Element example = parse(Files.readString(ROOT.resolve("examples/suspend-policy/pom.xml")));
        Map<String, String> exampleProps = properties(example);

        properties(page).forEach((k, v) -> assertEquals(v, exampleProps.get(k), "property " + k + " in the example's pom"));
        Map<String, Map<String, String>> exampleDeps = byKey(example, "dependencies", "dependency", exampleProps);
        byKey(page, "dependencies", "dependency", Map.of()).forEach((k, d) ->
                assertEquals(d, exampleDeps.get(k), "dependency " + k + " in the example's pom"));
        Map<String, Map<String, String>> examplePlugins = byKey(child(example, "build"), "plugins", "plugin", exampleProps);
        Map<String, Map<String, String>> pagePlugins = byKey(child(page, "build"), "plugins", "plugin", Map.of());
        assertFalse(pagePlugins.isEmpty());
        pagePlugins.forEach((k, p) -> assertEquals(p, examplePlugins.get(k), "plugin " + k + " in the example's pom"));
    }

    @Test
    void thePagesVersionsAreThoseOfVdpactlsOwnBuild() throws Exception {
        Element page = snippet();
        Element parent = parse(Files.readString(ROOT.resolve("pom.xml")));
        Map<String, String> props = properties(parent);
        String vdpactl = text(parent, "version");
        Map<String, Map<String, String>> deps = byKey(page, "dependencies", "dependency", Map.of());
        assertEquals(vdpactl, deps.get("org.vdpactl:vdpactl-client").get("version"));
        assertEquals(vdpactl, deps.get("org.vdpactl:vdpactl-testkit").get("version"));
        assertEquals(props.get("junit.version"), deps.get("org.junit.jupiter:junit-jupiter").get("version"));
        assertEquals(props.get("maven.compiler.release"), properties(page).get("maven.compiler.release"));
        Map<String, Map<String, String>> managed = byKey(child(child(parent, "build"), "pluginManagement"), "plugins", "plugin", props);
        byKey(child(page, "build"), "plugins", "plugin", Map.of()).forEach((k, p) ->
                assertEquals(managed.get(k).get("version"), p.get("version"), k + ": the version vdpactl's build uses"));
        assertTrue(byKey(child(page, "build"), "plugins", "plugin", Map.of()).get("org.apache.maven.plugins:maven-surefire-plugin")
                .get("configuration/argLine").contains("--enable-native-access=ALL-UNNAMED"));
    }

    private static Element snippet() throws Exception {
        String md = Files.readString(ROOT.resolve("docs/library.md"));
        Matcher m = Pattern.compile("<!-- library-build-section -->\\s*```xml\\n(.*?)```", Pattern.DOTALL).matcher(md);
        assertTrue(m.find(), "docs/library.md's build section");
        return parse(m.group(1));
    }

    private static Element parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(false);
        Document d = f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        return d.getDocumentElement();
    }

    private static List<Element> children(Element e) {
        List<Element> out = new ArrayList<>();
        for (Node n = e == null ? null : e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c) {
                out.add(c);
            }
        }
        return out;
    }

    private static Element child(Element e, String name) {
        Element c = children(e).stream().filter(x -> x.getTagName().equals(name)).findFirst().orElse(null);
        assertNotNull(c, "<" + name + "> in <" + e.getTagName() + ">");
        return c;
    }

    private static String text(Element e, String name) {
        return child(e, name).getTextContent().strip();
    }

    private static Map<String, String> properties(Element project) {
        Map<String, String> out = new LinkedHashMap<>();
        children(child(project, "properties")).forEach(p -> out.put(p.getTagName(), p.getTextContent().strip()));
        return out;
    }

    /** groupId:artifactId -> every other leaf ("version", "scope", "configuration/argLine"), ${properties} resolved. */
    private static Map<String, Map<String, String>> byKey(Element parent, String list, String item, Map<String, String> props) {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (Element e : children(child(parent, list))) {
            if (!e.getTagName().equals(item)) {
                continue;
            }
            Map<String, String> leaves = new LinkedHashMap<>();
            leaves(e, "", leaves, props);
            String key = leaves.remove("groupId") + ":" + leaves.remove("artifactId");
            leaves.keySet().removeIf(k -> k.startsWith("executions"));
            out.put(key, leaves);
        }
        return out;
    }

    private static void leaves(Element e, String prefix, Map<String, String> out, Map<String, String> props) {
        List<Element> kids = children(e);
        for (Element k : kids) {
            String path = prefix + k.getTagName();
            if (children(k).isEmpty()) {
                String v = k.getTextContent().strip();
                Matcher m = Pattern.compile("\\$\\{([^}]+)}").matcher(v);
                out.put(path, m.replaceAll(r -> Matcher.quoteReplacement(props.getOrDefault(r.group(1), r.group()))));
            } else {
                leaves(k, path + "/", out, props);
            }
        }
    }
}
