package org.vdpactl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Surefire runs only the classes its {@code <includes>} name: a test class under any other name
 * compiles, looks fine and never runs. Every concrete test class must match one of the patterns in
 * the pom.
 */
class TestClassNamesTest {
    /** Method annotations that make a class something the JUnit platform (Jupiter or jqwik) runs. */
    private static final Set<String> TEST_ANNOTATIONS = Set.of(
            "org.junit.jupiter.api.Test", "org.junit.jupiter.api.RepeatedTest", "org.junit.jupiter.api.TestFactory",
            "org.junit.jupiter.api.TestTemplate", "org.junit.jupiter.params.ParameterizedTest",
            "net.jqwik.api.Property", "net.jqwik.api.Example");

    @Test
    void everyTestClassMatchesASurefireInclude() throws Exception {
        // the parent pom's Surefire configuration is every module's (src/tests adds no include of its own)
        List<Pattern> includes = surefireIncludes(Path.of("pom.xml"));
        assertFalse(includes.isEmpty(), "the pom names its Surefire includes");
        List<String> testClasses = List.copyOf(concreteTestClasses().keySet());
        assertTrue(testClasses.size() > 50, "found the compiled test classes: " + testClasses.size());
        List<String> neverRun = testClasses.stream()
                .filter(c -> includes.stream().noneMatch(p -> p.matcher(c.replace('.', '/') + ".java").matches()))
                .toList();
        assertEquals(List.of(), neverRun, "test classes no Surefire include selects");
    }

    /**
     * Surefire writes one XML report per class and engine under the same file name, so a class with
     * both jqwik and Jupiter tests keeps only one engine's part of its report, and anything counting
     * from the reports sees fewer tests than ran (scripts/check-surefire-reports checks the sum).
     */
    @Test
    void noTestClassMixesJqwikAndJupiter() throws Exception {
        List<String> mixed = concreteTestClasses().entrySet().stream()
                .filter(c -> c.getValue().size() > 1)
                .map(Map.Entry::getKey)
                .toList();
        assertEquals(List.of(), mixed, "test classes with both jqwik and Jupiter tests: split them, one engine each");
    }

    /** "jqwik" and/or "jupiter": the engines whose test annotations the class's methods carry. */
    private static Set<String> engines(Class<?> type) {
        Set<String> engines = new TreeSet<>();
        for (Class<?> k = type; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                for (Annotation a : m.getAnnotations()) {
                    String name = a.annotationType().getName();
                    if (TEST_ANNOTATIONS.contains(name)) {
                        engines.add(name.startsWith("net.jqwik.") ? "jqwik" : "jupiter");
                    }
                }
            }
        }
        return engines;
    }

    private static Class<?> load(String name, ClassLoader loader) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    /** The {@code <include>} patterns of maven-surefire-plugin, as regular expressions on a source path. */
    private static List<Pattern> surefireIncludes(Path pom) throws Exception {
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
        List<Pattern> out = new ArrayList<>();
        NodeList plugins = doc.getElementsByTagName("plugin");
        for (int i = 0; i < plugins.getLength(); i++) {
            Element plugin = (Element) plugins.item(i);
            if (!"maven-surefire-plugin".equals(plugin.getElementsByTagName("artifactId").item(0).getTextContent())) {
                continue;
            }
            NodeList include = plugin.getElementsByTagName("include");
            for (int j = 0; j < include.getLength(); j++) {
                out.add(antToRegex(include.item(j).getTextContent().trim()));
            }
        }
        return out;
    }

    /** {@code **}/ = any directories, {@code *} = any characters within one name. */
    static Pattern antToRegex(String ant) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < ant.length(); i++) {
            char c = ant.charAt(i);
            if (ant.startsWith("**/", i)) {
                re.append("(?:.*/)?");
                i += 2;
            } else if (c == '*') {
                re.append("[^/]*");
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString());
    }

    /**
     * Top-level, non-abstract compiled test classes that declare or inherit a test method, with their engines:
     * this module's and every other module's (src/MODULE/BUILD_DIR/test-classes beside this one's, as far as this
     * build compiled them), each module's loaded over this module's class path, which holds every main module
     * and test library.
     */
    private static SortedMap<String, Set<String>> concreteTestClasses() throws IOException, URISyntaxException {
        Path own = Path.of(TestClassNamesTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path buildDir = own.getParent();
        List<Path> roots = new ArrayList<>();
        try (Stream<Path> modules = Files.list(buildDir.getParent().getParent())) {
            modules.map(m -> m.resolve(buildDir.getFileName()).resolve(own.getFileName()))
                    .filter(Files::isDirectory).sorted().forEach(roots::add);
        }
        SortedMap<String, Set<String>> out = new TreeMap<>();
        for (Path root : roots) {
            try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()},
                    TestClassNamesTest.class.getClassLoader()); Stream<Path> files = Files.walk(root)) {
                files.map(p -> root.relativize(p).toString())
                        .filter(n -> n.endsWith(".class") && !n.contains("$") && !n.equals("module-info.class"))
                        .map(n -> load(n.substring(0, n.length() - ".class".length()).replace('/', '.'), loader))
                        .filter(c -> !c.isInterface() && !Modifier.isAbstract(c.getModifiers()))
                        .forEach(c -> {
                            Set<String> engines = engines(c);
                            if (!engines.isEmpty()) {
                                out.put(c.getName(), engines);
                            }
                        });
            }
        }
        return out;
    }
}
