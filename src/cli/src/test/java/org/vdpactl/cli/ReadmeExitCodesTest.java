package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's exit-code table is what the code returns. */
class ReadmeExitCodesTest {
    @Test
    void everyExitCodeIsDocumentedWithItsNumberAndMeaning() throws Exception {
        List<String> rows = Files.readAllLines(Path.of("README.md")).stream().filter(l -> l.matches("\\| \\d+ \\| [A-Z_]+ \\|.*")).toList();
        assertEquals(ExitCode.values().length, rows.size(), "rows: " + rows);
        for (ExitCode c : ExitCode.values()) {
            String row = "| " + c.code() + " | " + c.name() + " | " + c.meaning() + " |";
            assertTrue(rows.contains(row), "README lacks: " + row);
        }
    }
}
