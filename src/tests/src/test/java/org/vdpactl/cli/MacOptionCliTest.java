package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --mac} in the forms iproute2's vdpa accepts: the same bytes, and one warning when the form can hide a typo. */
class MacOptionCliTest {

    @Test
    void aShortMacIsZeroFilledAsIproute2DoesWithOneWarningLine(@TempDir Path dir) {
        Path state = dir.resolve("fake-state.json");
        PrintStream realErr = System.err;
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        CliRun add;
        System.setErr(new PrintStream(logs, true, StandardCharsets.UTF_8));
        try {
            add = CliRun.of("--backend", "fake", "--fake-state", state.toString(),
                    "dev", "add", "m1", "--mgmtdev", "vdpasim_net", "--mac", "02:00");
        } finally {
            System.setErr(realErr);
        }
        assertEquals(0, add.exitCode(), add.err());
        var warnings = logs.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("warning: MAC")).toList();
        assertEquals(1, warnings.size(), logs.toString(StandardCharsets.UTF_8));
        assertTrue(warnings.get(0).contains("vdpactl: warning: MAC '02:00' read as 02:00:00:00:00:00, as iproute2's vdpa does"),
                warnings.get(0));
        CliRun config = CliRun.of("--backend", "fake", "--fake-state", state.toString(), "dev", "config", "m1");
        assertTrue(config.out().contains("mac 02:00:00:00:00:00"), config.out());
    }

    @Test
    void theCanonicalFormGivesNoWarning(@TempDir Path dir) {
        PrintStream realErr = System.err;
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        System.setErr(new PrintStream(logs, true, StandardCharsets.UTF_8));
        try {
            CliRun add = CliRun.of("--backend", "fake", "--fake-state", dir.resolve("s.json").toString(),
                    "dev", "add", "m1", "--mgmtdev", "vdpasim_net", "--mac", "02:00:00:00:00:07");
            assertEquals(0, add.exitCode(), add.err());
        } finally {
            System.setErr(realErr);
        }
        assertTrue(logs.toString(StandardCharsets.UTF_8).lines().noneMatch(l -> l.contains("warning: MAC")), logs.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aDottedBroadcastLikeAddressIsRefusedWithTheReason(@TempDir Path dir) {
        // 1.2.3.4 -> 01:02:03:04:00:00, whose first octet has the multicast bit
        CliRun add = CliRun.of("--backend", "fake", "--fake-state", dir.resolve("s.json").toString(),
                "dev", "add", "m1", "--mgmtdev", "vdpasim_net", "--mac", "1.2.3.4");
        assertEquals(ExitCode.USAGE.code(), add.exitCode(), add.err());
        assertTrue(add.err().contains("01:02:03:04:00:00 is a multicast address"), add.err());
    }
}
