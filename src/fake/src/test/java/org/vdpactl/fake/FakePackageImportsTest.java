package org.vdpactl.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The fake's package structure, read from its sources: no import cycle between org.vdpactl.fake
 * and its sub-packages (the root wires the sub-packages together, so nothing below may need the
 * root back through a package that the root imports). That the fake borrows nothing of the client is the
 * module graph's rule now (module org.vdpactl.fake does not read org.vdpactl.client): the compiler keeps it.
 *
 * <p>The root is one layer in three packages: the API ({@code FakeKernel}, {@code FakeProcess}: exported to
 * everyone), its VFS types ({@code fake.vfs}) and the accessors vdpactl's own modules use ({@code fake.inside}), which
 * are packages of their own only so that the exported one names no internal type. They count as one package here.
 */
class FakePackageImportsTest {
    private static final Path FAKE = Path.of("src", "fake", "src", "main", "java", "org", "vdpactl", "fake");
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);");
    /** An import, or a fully qualified name in code, of a class in a fake package. */
    /** The packages of the root's layer (see above). */
    private static final Set<String> ROOT_LAYER = Set.of("org.vdpactl.fake.vfs", "org.vdpactl.fake.inside");
    private static final Pattern FAKE_REF = Pattern.compile("\\b(org\\.vdpactl\\.fake(?:\\.[a-z]\\w*)*)\\.[A-Z]");

    @Test
    void noImportCycleBetweenFakePackages() {
        Map<String, Set<String>> edges = edges();
        assertEquals(List.of(), cycles(edges), "package cycles among " + edges);
    }

    @Test
    void cycleFinderReportsALoopAndNotWhatHangsOffIt() {
        Map<String, Set<String>> g = new TreeMap<>(Map.of("a", Set.of("b"), "b", Set.of("a", "c"), "c", Set.of(),
                "d", Set.of("a")));
        assertEquals(List.of(Set.of("a", "b")), cycles(g));
    }

    /** Package → the other fake packages its classes use (imports and qualified names outside comments). */
    private static Map<String, Set<String>> edges() {
        Map<String, Set<String>> edges = new TreeMap<>();
        forEachSource((file, lines) -> {
            String pkg = null;
            for (String line : lines) {
                Matcher p = PACKAGE.matcher(line);
                if (p.find()) {
                    pkg = layer(p.group(1));
                    edges.computeIfAbsent(pkg, k -> new TreeSet<>());
                    continue;
                }
                String code = line.strip();
                if (pkg == null || code.startsWith("*") || code.startsWith("//") || code.startsWith("/*")) {
                    continue;
                }
                Matcher m = FAKE_REF.matcher(code);
                while (m.find()) {
                    if (!layer(m.group(1)).equals(pkg)) {
                        edges.get(pkg).add(layer(m.group(1)));
                    }
                }
            }
        });
        return edges;
    }

    private static String layer(String pkg) {
        return ROOT_LAYER.contains(pkg) ? "org.vdpactl.fake" : pkg;
    }

    /** Tarjan's strongly connected components of more than one package, each sorted. */
    private static List<Set<String>> cycles(Map<String, Set<String>> edges) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<Set<String>> out = new ArrayList<>();
        for (String v : edges.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, edges, index, low, stack, out);
            }
        }
        return out;
    }

    private static void connect(String v, Map<String, Set<String>> edges, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, List<Set<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        for (String w : edges.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, edges, index, low, stack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (stack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                out.add(component);
            }
        }
    }

    private interface SourceVisitor {
        void visit(Path file, List<String> lines);
    }

    private static void forEachSource(SourceVisitor visitor) {
        try (Stream<Path> files = Files.walk(FAKE)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                visitor.visit(f, Files.readAllLines(f));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
