package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * vdpa_rehearse's {@code fake_kernel} keeps no copy of the fake's kernel profiles (a new profile would be refused by
 * Ansible before vdpactl saw it, or a copy would go stale): vdpactl checks the name, with the exit code the module's
 * documentation names, on the command the module runs.
 */
class AnsibleFakeKernelChoicesTest {
    private static final Path MODULE = Path.of("ansible/ansible_collections/vdpactl/vdpa/plugins/modules/vdpa_rehearse.py");

    @TempDir
    Path dir;

    @Test
    void theRehearseModuleLetsVdpactlCheckTheKernelName() throws Exception {
        String py = Files.readString(MODULE);
        // the DOCUMENTATION block's fake_kernel entry (up to the next option) and the argument spec's fake_kernel=dict(...)
        Matcher doc = Pattern.compile("\n  fake_kernel:\n(.*?)\n  [a-z_]+:\n", Pattern.DOTALL).matcher(py);
        assertTrue(doc.find(), MODULE + ": no fake_kernel option");
        Matcher spec = Pattern.compile("fake_kernel=dict\\(([^)]*)\\)").matcher(py);
        assertTrue(spec.find(), MODULE + ": no fake_kernel in the argument spec");
        assertFalse(doc.group(1).contains("choices"), MODULE + ": fake_kernel's documentation lists the profiles again");
        assertFalse(spec.group(1).contains("choices"), MODULE + ": fake_kernel's argument spec lists the profiles again");
        assertTrue(doc.group(1).contains("exit code " + ExitCode.USAGE.code()), doc.group(1));
        CliRun r = CliRun.of("--backend", "fake", "--fake-state", dir.resolve("state.json").toString(),
                "--fake-kernel", "5.4", "rehearse", "vdpa0", "--json");
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err());
        assertEquals(1, r.errorLines(), r.err());
        assertTrue(r.err().contains("unknown kernel 5.4"), r.err());
    }
}
