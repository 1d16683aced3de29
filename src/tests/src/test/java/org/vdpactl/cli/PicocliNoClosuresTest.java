package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.testsupport.SeparateJvm;

/**
 * The vdpactl process tells picocli not to look for Groovy's closure class ({@link Main#PICOCLI_NO_CLOSURES}): its
 * default factory otherwise searches the class path for groovy.lang.Closure when first used, and fails, at every
 * start. Seen in the process itself, through picocli's own trace of that decision.
 */
class PicocliNoClosuresTest {
    @Test
    void theDefaultFactoryLoadsNoClosureClass(@TempDir Path dir) throws Exception {
        Process p = SeparateJvm.start(Main.class, Map.of("JAVA_TOOL_OPTIONS", "-Dpicocli.trace=DEBUG"), dir.resolve("out"),
                dir.resolve("err"), "dev", "--help");
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "vdpactl dev --help did not end");
        String err = Files.readString(dir.resolve("err"));
        assertEquals(0, p.exitValue(), err);
        assertTrue(err.contains("[picocli DEBUG]"), "picocli traced nothing, so this test would show nothing: " + err);
        assertTrue(err.contains("groovy Closures in annotations are disabled and will not be loaded"), err);
    }
}
