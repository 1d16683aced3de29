package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.model.OpCost;
import org.vdpactl.sim.UpstreamScenarios;
import org.vdpactl.sys.Errno;

/** The fault hooks of §6.4 and the failure modes of §5 they reproduce. */
class Mlx5FaultInjectionTest {
    private static final Mlx5Preset PRE = Mlx5Presets.preset("mlx5-pre612");
    private static final Mlx5Preset V611 = Mlx5Presets.preset("mlx5-611");
    private static final Mlx5Preset V612 = Mlx5Presets.preset("mlx5-612");
    private static final double TIMEOUT_MS = Mlx5Params.DEFAULT.cmdTimeoutMs();

    @Test
    void syncTimeoutFailsTheOpAfterTheCommandTimeout() {
        Mlx5Device d = UpstreamScenarios.running(PRE);
        d.suspend();
        d.injectFault(FwFault.timeout(FwOpcode.QUERY_GENERAL_OBJECT, 2));
        d.getVqState(0);
        KernelError e = assertThrows(KernelError.class, () -> d.getVqState(1));
        assertEquals(Errno.ETIMEDOUT, e.errno());
        assertEquals(TIMEOUT_MS + Mlx5Params.DEFAULT.issueMs(), d.lastFailureCost().millis(), 1e-6);
        assertTrue(d.armedFaults().isEmpty());
    }

    @Test
    void asyncTimeoutHoldsTheBatchAndResumeReportsIt() {
        // FW 22.41.1000 on the 6.12 series: an async MODIFY times out, "failed to resume VQs"
        Mlx5Device d = UpstreamScenarios.running(V612);
        d.suspend();
        d.injectFault(FwFault.timeout(FwOpcode.MODIFY_GENERAL_OBJECT, 5));
        KernelError e = assertThrows(KernelError.class, d::resume);
        assertEquals(Errno.ETIMEDOUT, e.errno());
        assertTrue(d.lastFailureCost().millis() >= TIMEOUT_MS);
        assertEquals(VqState.SUSPEND, d.vqState(4), "the timed-out VQ did not change");
        assertEquals(VqState.RDY, d.vqState(5), "the rest of the batch completed");
    }

    @Test
    void driverOkFailureAddsFailedCleansMrsAndUnregistersTheNotifier() {
        Mlx5Device d = UpstreamScenarios.running(V612);
        d.suspend();
        d.reset(false);
        UpstreamScenarios.configure(d);
        d.injectFault(FwFault.timeout(FwOpcode.MODIFY_GENERAL_OBJECT, 1));
        OpCost c = d.setStatus(UpstreamScenarios.STATUS_FEATURES_OK, UpstreamScenarios.STATUS_RUNNING);
        assertTrue(c.millis() >= TIMEOUT_MS, "the op still took the timeout");
        assertEquals(UpstreamScenarios.STATUS_FEATURES_OK | Mlx5Device.STATUS_FAILED, d.status(),
                "FAILED on the old status, DRIVER_OK never set (mlx5_vdpa_set_status err_setup)");
        assertFalse(d.notifierRegistered());
        assertTrue(d.mapGeometry(0).isEmpty(), "MRs cleaned");
        assertTrue(c.deferredNanos() > 0, "on 6.12 the cleaned MR goes to the GC");
    }

    @Test
    void pre612SuspendSwallowsVqErrorsAnd611ReturnsThem() {
        Mlx5Device pre = UpstreamScenarios.running(PRE);
        pre.injectFault(FwFault.error(FwOpcode.MODIFY_GENERAL_OBJECT, 3, Errno.EIO));
        OpCost c = pre.suspend();
        assertEquals(63, c.syncCommands(), "the failed VQ is not queried, the others go on");
        assertEquals(VqState.RDY, pre.vqState(2));

        Mlx5Device v611 = UpstreamScenarios.running(V611);
        v611.injectFault(FwFault.error(FwOpcode.MODIFY_GENERAL_OBJECT, 3, Errno.EIO));
        KernelError e = assertThrows(KernelError.class, v611::suspend);
        assertEquals(Errno.EIO, e.errno());
        assertEquals(VqState.RDY, v611.vqState(3), "6.11 stops at the first error");
    }

    @Test
    void slotStarvationIsEbusyAfterTheTimeout() {
        Mlx5Device d = UpstreamScenarios.running(PRE);
        d.injectFault(FwFault.slotStarvation(1));
        KernelError e = assertThrows(KernelError.class, () -> d.changeNumQueuePairs(8));
        assertEquals(Errno.EBUSY, e.errno());
        assertEquals(TIMEOUT_MS + Mlx5Params.DEFAULT.issueMs(), d.lastFailureCost().millis(), 1e-6);
    }

    @Test
    void mrAllocationFailureKeepsTheOldMap() {
        Mlx5Device d = UpstreamScenarios.running(V612);
        d.injectMrAllocationFailure();
        KernelError e = assertThrows(KernelError.class, () -> d.setMap(0, UpstreamScenarios.guestMemory(4096)));
        assertEquals(Errno.ENOMEM, e.errno());
        assertEquals(256, d.mapGeometry(0).orElseThrow().directKeys());
        assertEquals(OpCost.FREE, d.lastFailureCost());
    }

    @Test
    void aFailedDirectKeyReleasesTheKeysAlreadyCreated() {
        Mlx5Device d = UpstreamScenarios.added(PRE);
        d.injectFault(FwFault.error(FwOpcode.CREATE_MKEY, 10, Errno.ENOMEM));
        assertThrows(KernelError.class, () -> d.setMap(1, UpstreamScenarios.guestMemory(1L << 30)));
        OpCost c = d.lastFailureCost();
        assertEquals(10 + 9, c.syncCommands(), "10 creates, the 10th failing, then 9 destroys");
        assertTrue(d.mapGeometry(1).isEmpty());
    }

    @Test
    void forcedErrBlocksResumeButNotReset() {
        Mlx5Device d = UpstreamScenarios.running(V612);
        d.suspend();
        d.forceVqError(0);
        assertThrows(KernelError.class, d::resume);
        d.reset(false);
        assertEquals(VqState.INIT, d.vqState(0), "destroy is the only way out of ERR");
        assertThrows(IllegalStateException.class, () -> UpstreamScenarios.added(PRE).forceVqError(0),
                "no FW object to break before DRIVER_OK on ≤6.10");
    }
}
