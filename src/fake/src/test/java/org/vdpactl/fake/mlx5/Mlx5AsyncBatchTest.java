package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.sys.Errno;

/** The discrete-event batch rule of §4.1 against its closed forms, limits and failures. */
class Mlx5AsyncBatchTest {
    private static final double EPS = 1e-9;

    static List<AsyncBatch.Command> identical(int n, double iss, double s) {
        return new ArrayList<>(Collections.nCopies(n, AsyncBatch.Command.of(iss, s)));
    }

    static double run(int n, double iss, double s, int servers, int limit, double rt) {
        return AsyncBatch.simulate(identical(n, iss, s), servers, limit, rt).durationMs();
    }

    @Test
    void specClosedFormHoldsWhereItsLastRoundHasOneCommand() {
        // the spec's batch(n, s) helper with iss 0.01, rt 0.05, F 3, P 16
        for (int n : new int[] {1, 2, 3, 4, 31, 256}) {
            for (double s : new double[] {0.08, 0.14, 0.45, 1.30}) {
                int lastRound = n - 3 * ((n - 1) / 3);
                boolean issuerBound = n * 0.01 >= lastRound * 0.01 + ((n - 1) / 3) * s;
                if (lastRound == 1 || n <= 3 || issuerBound) {
                    assertEquals(AsyncBatch.closedForm(n, 0.01, s, 3, 0.05), run(n, 0.01, s, 3, 16, 0.05), EPS,
                            "n=" + n + " s=" + s);
                }
            }
        }
    }

    @Test
    void specClosedFormUnderestimatesByTheStaggerOfTheLastRound() {
        // 32 suspends on 3 FW servers: the last round holds 2 commands, posted 2·iss after the first
        double des = run(32, 0.01, 0.14, 3, 16, 0.05);
        assertEquals(1.61, des, EPS);
        assertEquals(1.60, AsyncBatch.closedForm(32, 0.01, 0.14, 3, 0.05), EPS);
        assertEquals(0.01, des - AsyncBatch.closedForm(32, 0.01, 0.14, 3, 0.05), EPS);
    }

    @Test
    void issuerBoundMkeyBatchOfTheSpecIsExact() {
        // 256 direct keys at 4 KiB: iss 1.731 ms, s 5.927 ms, F = 4, P = 31
        double iss = 0.010 + 4097 * 0.42e-3;
        double s = 0.15 + 4097 * 1.41e-3;
        assertEquals(AsyncBatch.closedForm(256, iss, s, 4, 0.05), run(256, iss, s, 4, 31, 0.05), EPS);
        assertEquals(449.05, run(256, iss, s, 4, 31, 0.05), 0.01);
    }

    @Test
    void aBindingOutstandingLimitSerialisesOnCompletions() {
        // P = 1: every command waits for the previous completion; building the next one overlaps that wait
        assertEquals(0.01 + 10 * (0.2 + 0.05), run(10, 0.01, 0.2, 4, 1, 0.05), EPS);
        // a long round trip with P = 2 and 8 servers: pairs of commands per round trip
        double des = run(8, 0.01, 0.1, 8, 2, 1.0);
        assertTrue(des > AsyncBatch.exactForm(8, 0.01, 0.1, 8, 1.0) + 1, "limit must bind: " + des);
    }

    @Test
    void aTimedOutCommandHoldsTheBatchForTheTimeoutAndReportsFirstError() {
        List<AsyncBatch.Command> cmds = identical(4, 0.01, 0.1);
        cmds.set(2, new AsyncBatch.Command(0.01, 0.1, new AsyncBatch.Failure(Errno.ETIMEDOUT, 60_000, true)));
        cmds.set(3, new AsyncBatch.Command(0.01, 0.1, new AsyncBatch.Failure(Errno.EIO, Double.NaN, true)));
        AsyncBatch.Result r = AsyncBatch.simulate(cmds, 3, 16, 0.05);
        assertEquals(0.03 + 60_000, r.durationMs(), EPS);
        assertEquals(Errno.ETIMEDOUT, r.firstError());
        assertEquals(Errno.EIO, r.errno()[3]);
    }

    @Test
    void aStarvedCommandNeverReachesFirmware() {
        List<AsyncBatch.Command> cmds = identical(2, 0.01, 0.5);
        cmds.set(0, new AsyncBatch.Command(0.01, 0.5, new AsyncBatch.Failure(Errno.EBUSY, 100, false)));
        AsyncBatch.Result r = AsyncBatch.simulate(cmds, 1, 16, 0.05);
        assertTrue(Double.isNaN(r.startedMs()[0]));
        assertEquals(0.02, r.startedMs()[1], EPS, "the single server stayed free for the second command");
        assertEquals(0.01 + 100, r.durationMs(), EPS);
    }

    @Test
    void commandsEnterFirmwareInIssueOrder() {
        List<AsyncBatch.Command> cmds = List.of(AsyncBatch.Command.of(0.01, 1.0), AsyncBatch.Command.of(0.01, 0.1),
                AsyncBatch.Command.of(0.01, 0.3), AsyncBatch.Command.of(0.01, 0.1));
        AsyncBatch.Result r = AsyncBatch.simulate(cmds, 2, 16, 0.05);
        for (int i = 1; i < cmds.size(); i++) {
            assertTrue(r.startedMs()[i] >= r.startedMs()[i - 1], "FIFO at " + i);
        }
        assertEquals(0.12, r.startedMs()[2], EPS, "third command takes the server the second one freed");
    }
}
