package org.vdpactl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The library modules' javadoc (issue 32 item 9): it documents the packages module-info exports to everyone and
 * no other (javadoc counts a package exported only to vdpactl's own modules as exported, so the module's javadoc
 * configuration excludes those), and no package summary holds a literal "\n" (eight did, which broke their first
 * sentence).
 */
class LibraryJavadocTest {
    private static final Path ROOT = RepositoryRoot.find();

    @ParameterizedTest
    @ValueSource(strings = {"abi", "client", "orchestra", "fake", "testkit", "report"})
    void theJavadocLeavesOutEveryPackageExportedOnlyToVdpactlsOwnModules(String module) throws IOException {
        String moduleInfo = Files.readString(ROOT.resolve("src/" + module + "/src/main/java/module-info.java"));
        TreeSet<String> qualified = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\s*exports ([\\w.]+) to ").matcher(moduleInfo);
        while (m.find()) {
            if (!m.group(1).startsWith("org.vdpactl.ffi.gen.")) { // excluded for every module by the parent
                qualified.add(m.group(1));
            }
        }
        String pom = Files.readString(ROOT.resolve("src/" + module + "/pom.xml")).replaceAll("(?s)<!--.*?-->", "");
        Matcher excl = Pattern.compile("<excludePackageNames>([^<]*)</excludePackageNames>").matcher(pom);
        TreeSet<String> excluded = new TreeSet<>();
        if (excl.find()) {
            for (String p : excl.group(1).split(":")) {
                if (!p.strip().startsWith("org.vdpactl.ffi.gen.")) {
                    excluded.add(p.strip());
                }
            }
        }
        assertEquals(qualified, excluded, "vdpactl-" + module + "'s javadoc excludes exactly its qualified exports");
    }

    /**
     * Each module's javadoc links the javadoc of every vdpactl library it depends on (the kit's {@code Syscalls} and
     * {@code Clock} were plain text): an offline link with the relative URL of the side-by-side layout, and the
     * sibling's javadoc output as the element list (built earlier in the reactor).
     */
    @ParameterizedTest
    @ValueSource(strings = {"client", "orchestra", "fake", "testkit", "report"})
    void theJavadocLinksTheJavadocOfTheLibrariesItUses(String module) throws IOException {
        String pom = Files.readString(ROOT.resolve("src/" + module + "/pom.xml")).replaceAll("(?s)<!--.*?-->", "");
        String deps = pom.substring(pom.indexOf("<dependencies>"), pom.indexOf("</dependencies>"));
        Matcher d = Pattern.compile("<artifactId>vdpactl-(abi|client|orchestra|fake|testkit|report)</artifactId>").matcher(deps);
        List<String> missing = new ArrayList<>();
        while (d.find()) {
            String link = "<offlineLink><url>../vdpactl-" + d.group(1) + "/</url><location>${project.basedir}/../" + d.group(1)
                    + "/${buildDirName}/reports/apidocs</location></offlineLink>";
            if (!pom.contains(link)) {
                missing.add(link);
            }
        }
        assertEquals(List.of(), missing, "vdpactl-" + module + "'s javadoc links");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abi", "client", "orchestra", "fake", "testkit", "report"})
    void noPackageSummaryHoldsALiteralNewlineEscape(String module) throws IOException {
        List<String> broken = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT.resolve("src/" + module + "/src/main/java"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().equals("package-info.java")).toList()) {
                if (Files.readString(f).contains("\\n")) {
                    broken.add(ROOT.relativize(f).toString());
                }
            }
        }
        assertFalse(broken.size() > 0, "a literal \\n in " + broken);
    }
}
