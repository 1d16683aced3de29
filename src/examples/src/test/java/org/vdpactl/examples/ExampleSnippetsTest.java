package org.vdpactl.examples;

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
 * Every Java block of docs/library.md and docs/fake-kernel.md is a region of a compiled source: the line before it
 * says {@code <!-- example: PATH#NAME -->}, and the block must equal the lines between {@code // snippet NAME} and
 * {@code // end snippet} of PATH (dedented). The sources are this module's and examples/suspend-policy's, so a
 * documented line that does not compile fails the build, and a changed source fails here until the page follows.
 * {@code -Dvdpactl.docs.write=true} rewrites the blocks from the sources.
 */
class ExampleSnippetsTest {
    static final List<Path> PAGES = List.of(Path.of("docs/library.md"), Path.of("docs/fake-kernel.md"));
    private static final Pattern BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern MARKER = Pattern.compile("<!-- example: ([^#\\s]+)#([\\w-]+) -->\\n$");

    @Test
    void everyJavaBlockOfThePagesIsARegionOfACompiledSource() throws IOException {
        boolean write = Boolean.getBoolean("vdpactl.docs.write");
        int blocks = 0;
        for (Path page : PAGES) {
            String md = Files.readString(page);
            StringBuilder out = new StringBuilder();
            Matcher b = BLOCK.matcher(md);
            int last = 0;
            while (b.find()) {
                Matcher m = MARKER.matcher(md.substring(Math.max(0, b.start() - 200), b.start()));
                assertTrue(m.find(), page + ": the Java block at offset " + b.start()
                        + " has no <!-- example: PATH#NAME --> line before it, so nothing compiles it");
                String source = region(Path.of(m.group(1)), m.group(2));
                if (write) {
                    out.append(md, last, b.start(1)).append(source);
                    last = b.end(1);
                } else {
                    assertEquals(source, b.group(1), page + ": the block of " + m.group(1) + "#" + m.group(2)
                            + " (-Dvdpactl.docs.write=true rewrites it)");
                }
                blocks++;
            }
            if (write) {
                Files.writeString(page, out.append(md.substring(last)).toString());
            }
        }
        assertEquals(3, blocks, "the Java blocks of the two pages: two in library.md, one in fake-kernel.md");
    }

    @Test
    void aRegionIsItsLinesDedentedAndAMissingOneIsNamed() {
        assertEquals("a;\n  b;\n", dedent(List.of("    a;", "      b;")));
        AssertionError missing = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> region(Path.of("src/examples/src/main/java/org/vdpactl/examples/BuildingOne.java"), "nosuch"));
        assertTrue(missing.getMessage().contains("no // snippet nosuch"), missing.getMessage());
    }

    /** The lines between "// snippet NAME" and "// end snippet" of a file, dedented. */
    static String region(Path file, String name) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new AssertionError(file + " cannot be read", e);
        }
        List<String> body = new ArrayList<>();
        boolean in = false;
        for (String line : lines) {
            String t = line.trim();
            if (!in && (t.equals("// snippet " + name) || t.startsWith("// snippet " + name + " "))) {
                in = true;
            } else if (in && t.equals("// end snippet")) {
                assertFalse(body.isEmpty(), file + "#" + name + " is empty");
                return dedent(body);
            } else if (in) {
                body.add(line);
            }
        }
        throw new AssertionError(file + " has no // snippet " + name + " ... // end snippet");
    }

    static String dedent(List<String> body) {
        int indent = body.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder sb = new StringBuilder();
        for (String l : body) {
            sb.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
        }
        return sb.toString();
    }
}
