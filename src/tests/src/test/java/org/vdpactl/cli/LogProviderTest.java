package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.cli.log.StderrLoggerProvider;
import org.vdpactl.testsupport.SeparateJvm;

/**
 * The vdpactl process names its SLF4J provider ({@link Main#nameLogProvider}) instead of letting SLF4J search the
 * JDK's modules and the class path for one, and SLF4J's note that it loads a named provider stays off stderr.
 */
class LogProviderTest {
    @Test
    void theProviderIsNamedUnlessOneIsGiven() {
        String provider = System.getProperty(Main.SLF4J_PROVIDER);
        String verbosity = System.getProperty(Main.SLF4J_VERBOSITY);
        try {
            System.clearProperty(Main.SLF4J_PROVIDER);
            System.clearProperty(Main.SLF4J_VERBOSITY);
            Main.nameLogProvider();
            assertEquals(StderrLoggerProvider.class.getName(), System.getProperty(Main.SLF4J_PROVIDER));
            assertEquals("WARN", System.getProperty(Main.SLF4J_VERBOSITY));
            System.setProperty(Main.SLF4J_PROVIDER, "org.example.TheirProvider");
            System.clearProperty(Main.SLF4J_VERBOSITY);
            Main.nameLogProvider();
            assertEquals("org.example.TheirProvider", System.getProperty(Main.SLF4J_PROVIDER), "a provider given with -D");
            assertEquals(null, System.getProperty(Main.SLF4J_VERBOSITY), "SLF4J's notes about the user's provider");
        } finally {
            restore(Main.SLF4J_PROVIDER, provider);
            restore(Main.SLF4J_VERBOSITY, verbosity);
        }
    }

    /** A warning still reaches stderr through the CLI's provider, and it is the only line besides the command's own. */
    @Test
    void aWarningIsTheOnlyLogLineOnStderr(@TempDir Path dir) throws Exception {
        Process p = SeparateJvm.start(Main.class, dir.resolve("out"), dir.resolve("err"), "--backend", "fake", "--fake-state",
                dir.resolve("state.json").toString(), "dev", "add", "m0", "--mgmtdev", "vdpasim_net", "--mac", "02:00");
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "vdpactl dev add did not end");
        List<String> err = Files.readAllLines(dir.resolve("err"));
        assertEquals(0, p.exitValue(), String.join("\n", err));
        assertEquals(List.of("[WARN] vdpactl: warning: MAC '02:00' read as 02:00:00:00:00:00, as iproute2's vdpa does (2 of 6 groups: the rest are zero)",
                "vdpactl: created m0 on vdpasim_net"), err);
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
