package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node record whose holder cannot be confirmed by its start time is stale: a hand-written
 * {@code .open} record of pid 1 (alive, but not a vdpactl that recorded it) marked {@code removing}
 * made {@code dev del} wait without limit (still running after 120 s; with --wait 5 after 30 s).
 */
class StaleOpenRecordTest {
    @TempDir
    Path dir;

    @Test
    void aRecordOfALivePidWithoutItsStartTimeHoldsNothing() throws Exception {
        Path state = dir.resolve("s.json");
        assertEquals(0, CliRun.onFake(state, "dev", "add", "x1", "--mgmtdev", "vdpasim_net").exitCode());
        Files.writeString(dir.resolve("s.json.open"),
                "[{\"device\":\"mlx5-0\",\"minor\":2,\"pid\":1,\"startMillis\":null,\"kernel\":\"k\",\"removing\":true}]");
        CliProcess p = CliProcess.start(dir, "del", "--backend", "fake", "--fake-state", state.toString(), "dev", "del", "mlx5-0");
        CliRun r = p.await(60, TimeUnit.SECONDS);
        assertEquals(0, r.exitCode(), r.err());
        assertFalse(Files.readString(state).contains("\"mlx5-0\""), "deleted");
        assertTrue(r.noStackTrace(), r.err());
    }
}
