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

    /**
     * A live process (its start time confirms the record) whose delete claimed the node waits for the node's holder,
     * maybe for ever: dev del waited with it without limit (--wait 5 still ran after 30 s). Now it lets that delete
     * end for a bounded time (2 s, or --wait), then refuses naming it; the device is left as it was.
     */
    @Test
    void aLiveDeleteClaimIsWaitedForWithinABound() throws Exception {
        Path state = dir.resolve("s.json");
        assertEquals(0, CliRun.onFake(state, "dev", "add", "x1", "--mgmtdev", "vdpasim_net").exitCode());
        String node = CliRun.onFake(state, "vhost", "info", "mlx5-0").out().lines().filter(l -> l.contains("/dev/vhost-vdpa-"))
                .findFirst().orElseThrow();
        int minor = Integer.parseInt(node.replaceAll(".*/dev/vhost-vdpa-(\\d+).*", "$1"));
        Process sleeper = new ProcessBuilder("sleep", "600").start();
        try {
            long start = sleeper.toHandle().info().startInstant().orElseThrow().toEpochMilli();
            Files.writeString(dir.resolve("s.json.open"), "[{\"device\":\"mlx5-0\",\"minor\":" + minor + ",\"pid\":" + sleeper.pid()
                    + ",\"startMillis\":" + start + ",\"kernel\":\"k\",\"removing\":true}]");
            for (String[] wait : List.of(new String[0], new String[] {"--wait", "3"})) {
                List<String> args = new ArrayList<>(List.of("--backend", "fake", "--fake-state", state.toString(), "dev", "del", "mlx5-0"));
                args.addAll(List.of(wait));
                CliRun r = CliProcess.start(dir, "del" + wait.length, args.toArray(String[]::new)).await(60, TimeUnit.SECONDS);
                assertEquals(ExitCode.KERNEL_ERROR.code(), r.exitCode(), r.err());
                assertTrue(r.err().contains("/dev/vhost-vdpa-" + minor + " is claimed by the delete of pid " + sleeper.pid()
                        + " (sleep, user " + System.getProperty("user.name") + ") after " + (wait.length == 0 ? 2 : 3) + " s"), r.err());
                assertTrue(Files.readString(state).contains("mlx5-0"), "not deleted");
            }
        } finally {
            sleeper.destroyForcibly();
        }
    }
}
