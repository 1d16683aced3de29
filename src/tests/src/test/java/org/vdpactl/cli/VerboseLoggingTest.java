package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.testsupport.SeparateJvm;

/**
 * {@code --verbose} (README: "adds the stack trace"; the option's help: "Log more") turns on debug
 * lines in a real vdpactl process, whose loggers exist before the option is parsed. The separate JVM
 * starts at the CLI's own default level (INFO), not the test build's.
 */
class VerboseLoggingTest {
    /** The debug line every fake-backend command logs when it opens the backend. */
    private static final String BACKEND_LINE = "[DEBUG] backend: fake (simulated devices";

    @TempDir
    Path dir;

    @Test
    void verboseBeforeTheCommandLogsDebugLines() throws Exception {
        assertTrue(stderr("--verbose", "dev", "list").contains(BACKEND_LINE));
    }

    @Test
    void theShortOptionAfterTheCommandDoesToo() throws Exception {
        assertTrue(stderr("dev", "-v", "list").contains(BACKEND_LINE));
    }

    @Test
    void withoutItNoDebugLine() throws Exception {
        String err = stderr("dev", "list");
        assertFalse(err.contains("[DEBUG]"), err);
    }

    /** stderr of {@code vdpactl --backend fake --fake-state … ARGS} run as its own process, which must exit 0. */
    private String stderr(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("--backend", "fake", "--fake-clock", "virtual",
                "--fake-state", dir.resolve("state.json").toString()));
        all.addAll(List.of(args));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process p = SeparateJvm.start(Main.class, out, err, all.toArray(String[]::new));
        try {
            assertTrue(p.waitFor(2, TimeUnit.MINUTES), "vdpactl did not end");
            String text = Files.readString(err);
            assertEquals(0, p.exitValue(), text);
            assertFalse(text.contains("SLF4J"), "SLF4J must find exactly one provider: " + text);
            return text;
        } finally {
            p.destroyForcibly();
        }
    }
}
