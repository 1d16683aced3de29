package org.vdpactl.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The kernels the library speaks are the lane matrix's (scripts/vm/lane-matrix.tsv, the list every lane script
 * reads), copied beside the profiles by the build: adding a kernel edits no Java list (issue 33, a kernel profile
 * in at most five files).
 */
class KernelProfileIndexTest {
    private static final Path MATRIX = Path.of("scripts", "vm", "lane-matrix.tsv");

    @Test
    void theVersionsAreTheLaneMatrixsProfilesOldestFirst() throws IOException {
        List<String> column = Files.readAllLines(MATRIX).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).map(l -> l.split("\\s+")[1]).distinct().toList();
        assertEquals(column, KernelProfiles.VERSIONS);
        assertEquals(KernelProfiles.VERSIONS, KernelProfiles.all().stream().map(KernelProfile::version).toList());
    }

    @Test
    void theCopyOnTheClassPathIsTheMatrixItself() throws IOException {
        try (InputStream in = KernelProfiles.class.getResourceAsStream("/org/vdpactl/abi/kernels/lane-matrix.tsv")) {
            assertNotNull(in, "the build copies scripts/vm/lane-matrix.tsv beside the profiles");
            assertEquals(Files.readString(MATRIX), new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        String code = Files.readString(Path.of("src/abi/src/main/java/org/vdpactl/abi/KernelProfiles.java"));
        assertFalse(code.matches("(?s).*VERSIONS\\s*=\\s*List\\.of\\(.*"), "KernelProfiles types its versions again");
    }
}
