package org.vdpactl.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README and docs/ name only classes that exist: after a class moves or goes, a page that still
 * names it sends a newcomer looking for nothing. Checked: every {@code org.vdpactl.x.Y} and every
 * project-package-qualified {@code x.Y} ("sim.UpstreamScenarios") is a source file, and every class
 * name written alone in backticks ("`VhostDeviceNodes`") is a type of the sources, a JDK class, or
 * one of the few outside names listed here.
 */
class DocClassReferencesTest {
    private static final List<String> PACKAGES = List.of("vhost", "mgmt", "netlink", "sys", "orchestra", "sim", "cli", "report",
            "fake", "time", "ffi", "packaging", "bench", "lane", "spec", "conformance");
    private static final Pattern QUALIFIED = Pattern.compile(
            "(?<![\\w.])(?:org\\.vdpactl\\.)?((?:" + String.join("|", PACKAGES) + ")(?:\\.[a-z0-9_]+)*)\\.([A-Z]\\w*)");
    /** A backtick span that is a class name, possibly with a member: `Name`, `Name.member()`, `Name#member`. */
    private static final Pattern CLASS_SPAN = Pattern.compile("`([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)(?:[.#][\\w]+(?:\\(\\))?)?`");
    /** Outside names the docs speak of, with camel case like a class: where each comes from. */
    private static final Map<String, String> OUTSIDE = Map.of(
            "MemAvailable", "a /proc/meminfo field",
            "NetlinkOps", "govdpa's interface (docs/spec/anchors.md)",
            "IntPipeline", "java.util.stream, package-private");
    private static final List<String> JDK_PACKAGES = List.of("java.lang.", "java.util.", "java.util.concurrent.",
            "java.util.stream.", "java.lang.management.", "java.lang.foreign.", "java.lang.invoke.", "java.io.", "java.nio.");

    @Test
    void docsNameOnlyClassesThatExist() throws IOException {
        Set<String> files = new HashSet<>();
        Set<String> types = new HashSet<>();
        sourceTypes(files, types);
        assertTrue(types.contains("VhostDeviceNodes") && files.contains("sim.UpstreamScenarios"), "the source walk found the sources");
        List<String> stale = new ArrayList<>();
        int checked = 0;
        for (Path doc : docs()) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                String where = doc + ":" + (i + 1) + ": ";
                Matcher q = QUALIFIED.matcher(lines.get(i));
                while (q.find()) {
                    checked++;
                    String name = q.group(1) + "." + q.group(2);
                    // JMH writes bench.jmh_generated.* at build time (a profile's top frame may name one): no source file
                    if (!files.contains(name) && !isNested(name, files) && !name.startsWith("bench.jmh_generated.")) {
                        stale.add(where + q.group());
                    }
                }
                Matcher c = CLASS_SPAN.matcher(lines.get(i));
                while (c.find()) {
                    checked++;
                    String name = c.group(1);
                    if (!types.contains(name) && !OUTSIDE.containsKey(name) && !isJdkClass(name)) {
                        stale.add(where + "`" + name + "`");
                    }
                }
            }
        }
        assertEquals(List.of(), stale, "docs naming classes that do not exist (moved or removed?)");
        assertTrue(checked > 150, "only " + checked + " class names found in the docs");
    }

    /** "pkg.Outer.Inner" names a nested type when "pkg.Outer" is a file. */
    private static boolean isNested(String name, Set<String> files) {
        for (int dot = name.lastIndexOf('.'); dot > 0; dot = name.lastIndexOf('.', dot - 1)) {
            String prefix = name.substring(0, dot);
            if (files.contains(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isJdkClass(String name) {
        for (String p : JDK_PACKAGES) {
            try {
                Class.forName(p + name, false, DocClassReferencesTest.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException e) {
                // not in this package
            }
        }
        return false;
    }

    /** Files as "pkg.Name" below org/vdpactl, and the simple names of every type they declare. */
    private static void sourceTypes(Set<String> files, Set<String> types) throws IOException {
        Pattern declared = Pattern.compile("\\b(?:class|record|enum|interface)\\s+([A-Z]\\w*)");
        // the sources and the example project's (docs/library.md quotes examples/suspend-policy)
        try (Stream<Path> s = Stream.concat(Files.walk(Path.of("src")), Files.walk(Path.of("examples")))) {
            for (Path p : s.filter(f -> f.toString().endsWith(".java")).toList()) {
                String rel = p.toString().replace('\\', '/');
                int at = rel.indexOf("/org/vdpactl/");
                if (at >= 0) {
                    files.add(rel.substring(at + "/org/vdpactl/".length(), rel.length() - ".java".length()).replace('/', '.'));
                }
                Matcher m = declared.matcher(Files.readString(p));
                while (m.find()) {
                    types.add(m.group(1));
                }
            }
        }
    }

    private static List<Path> docs() throws IOException {
        List<Path> out = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> s = Files.walk(Path.of("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
        }
        return out;
    }
}
