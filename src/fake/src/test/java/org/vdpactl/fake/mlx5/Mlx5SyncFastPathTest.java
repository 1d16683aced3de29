package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.sys.Errno;

/**
 * The allocation-free paths of the model (the per-call cost of a rehearsal of many devices) give
 * exactly what the general simulation gives: a sync command without armed faults, the per-VQ
 * commands built once per device, and a batch over several FW servers.
 */
class Mlx5SyncFastPathTest {

    @Test
    void syncWithoutFaultsIsTheSimulatedBatchOfOneJitterIncluded() {
        Mlx5Params jittered = Mlx5Params.DEFAULT.with("jitterSigma", 0.3);
        CommandQueue general = new CommandQueue(jittered);
        CommandQueue fast = new CommandQueue(jittered);
        FwCommands cmds = new FwCommands(jittered);
        for (int vq = 0; vq < 8; vq++) {
            for (FwCommand c : cmds.vqCreate(vq, true)) {
                double expected = general.sync(c).durationMs();
                // both queues draw the same jitter sequence, so any difference is the arithmetic
                assertEquals(expected, fast.syncMsWithoutFaults(c), 0.0, c.toString());
            }
        }
    }

    @Test
    void aBatchOfOneWithoutFaultsIsTheSimulatedBatchJitterAndCountsIncluded() {
        Mlx5Params jittered = Mlx5Params.DEFAULT.with("jitterSigma", 0.3).with("fwConcurrencyObj", 3);
        OpMeter general = new OpMeter(new CommandQueue(jittered), true);
        OpMeter fast = new OpMeter(new CommandQueue(jittered), true);
        FwCommands cmds = new FwCommands(jittered);
        for (int vq = 0; vq < 8; vq++) {
            FwCommand query = cmds.vqQuery(vq);
            assertEquals(general.batch(List.of(query)).firstError(), fast.batchOfOne(query));
            // the same jitter draws, so the totals match to the last bit
            assertEquals(general.elapsedMs(), fast.elapsedMs(), 0.0, "after vq " + vq);
        }
        assertEquals(general.cost(), fast.cost());
        assertEquals(general.trace(), fast.trace());
    }

    @Test
    void aBatchOfOneWithAnArmedFaultFailsThroughTheSimulation() {
        CommandQueue q = new CommandQueue(Mlx5Params.DEFAULT);
        q.arm(FwFault.error(FwOpcode.QUERY_GENERAL_OBJECT, 1, Errno.EIO));
        OpMeter m = new OpMeter(q, false);
        assertEquals(Errno.EIO, m.batchOfOne(new FwCommands(Mlx5Params.DEFAULT).vqQuery(0)));
        assertEquals(1, m.cost().asyncBatches());
    }

    @Test
    void anArmedFaultSendsTheCommandThroughTheSimulationSoItCanFail() {
        CommandQueue q = new CommandQueue(Mlx5Params.DEFAULT);
        q.arm(FwFault.error(FwOpcode.QUERY_GENERAL_OBJECT, 1, Errno.EIO));
        FwCommand query = new FwCommands(Mlx5Params.DEFAULT).vqQuery(0);
        assertTrue(Double.isNaN(q.syncMsWithoutFaults(query)));
        OpMeter m = new OpMeter(q, false);
        assertEquals(Errno.EIO, m.sync(query));
    }

    @Test
    void perVqCommandsAreBuiltOnceAndNamedAfterTheirVq() {
        FwCommands cmds = new FwCommands(Mlx5Params.DEFAULT);
        List<FwCommand> create = cmds.vqCreate(5, false);
        assertSame(create, cmds.vqCreate(5, false));
        assertEquals("virtio_net_q 5", create.getLast().object());
        assertTrue(cmds.vqCreate(5, true).size() > create.size(), "counters add a command");
        assertSame(cmds.vqQuery(3), cmds.vqQuery(3));
        assertEquals("virtio_net_q 3", cmds.vqQuery(3).object());
        FwCommand toRdy = cmds.vqModify(2, VqState.SUSPEND, VqState.RDY, true);
        assertSame(toRdy, cmds.vqModify(2, VqState.SUSPEND, VqState.RDY, true));
        assertEquals("virtio_net_q 2 SUSPEND → RDY", toRdy.object());
        assertEquals("virtio_net_q 2 fields", cmds.vqModify(2, VqState.INIT, VqState.INIT, true).object());
        assertTrue(toRdy.serviceMs() > cmds.vqModify(2, VqState.SUSPEND, VqState.RDY, false).serviceMs(),
                "pending fields cost extra");
        assertEquals("cq of vq 9", cmds.vqDestroy(9, false).getLast().object());
        // every device of a preset issues the same commands: one set per parameter set
        assertSame(FwCommands.of(Mlx5Params.DEFAULT), FwCommands.of(Mlx5Params.DEFAULT));
    }

    @Test
    void aBatchOverSeveralServersTakesTheEarliestFreeServer() {
        // three servers, five commands of 1 ms posted at once: two FW rounds, the second of two commands
        List<AsyncBatch.Command> five = Collections.nCopies(5, AsyncBatch.Command.of(0, 1));
        AsyncBatch.Result r = AsyncBatch.simulate(five, 3, 16, 0);
        assertEquals(2.0, r.durationMs(), 1e-12);
        assertEquals(List.of(0.0, 0.0, 0.0, 1.0, 1.0), Arrays.stream(r.startedMs()).boxed().toList());
        assertEquals(0, r.firstError());
    }
}
