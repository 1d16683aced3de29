package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.model.OpCost;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.sim.UpstreamScenarios;
import org.vdpactl.sys.Errno;

/** VQ lifecycle rules of §3, op gating of §1 and the errors of §5. */
class Mlx5StateMachineTest {
    private static final Mlx5Preset PRE = Mlx5Presets.preset("mlx5-pre612");
    private static final Mlx5Preset V611 = Mlx5Presets.preset("mlx5-611");
    private static final Mlx5Preset V612 = Mlx5Presets.preset("mlx5-612");

    private static Mlx5Device running(Mlx5Preset p) {
        Mlx5Device d = UpstreamScenarios.running(p);
        d.setTracing(true);
        return d;
    }

    private static void assertErrno(int errno, Runnable op) {
        KernelError e = assertThrows(KernelError.class, op::run);
        assertEquals(errno, e.errno(), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mlx5-pre612", "mlx5-611", "mlx5-612"})
    void aRunningDeviceHasAllActiveVqsReady(String preset) {
        Mlx5Device d = running(Mlx5Presets.preset(preset));
        assertEquals(32, d.activeVqs());
        for (int i = 0; i < 32; i++) {
            assertEquals(VqState.RDY, d.vqState(i));
        }
        assertTrue(d.notifierRegistered());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mlx5-611", "mlx5-612"})
    void resumeFromErrIsEinval(String preset) {
        Mlx5Device d = running(Mlx5Presets.preset(preset));
        d.suspend();
        d.forceVqError(0);
        assertErrno(Errno.EINVAL, d::resume);
        assertEquals(VqState.ERR, d.vqState(0));
    }

    @Test
    void v612ValidatesTheWholeBatchBeforeSending() {
        Mlx5Device d = running(V612);
        d.suspend();
        d.forceVqError(7);
        assertErrno(Errno.EINVAL, d::resume);
        assertEquals(0, d.lastFailureCost().asyncBatches(), "nothing sent");
        assertEquals(VqState.SUSPEND, d.vqState(0));
    }

    @Test
    void pre612ResumeSkipsVqsItCannotResume() {
        Mlx5Device d = running(PRE);
        d.suspend();
        d.forceVqError(0);
        OpCost c = d.resume();
        assertEquals(31, c.syncCommands());
        assertEquals(VqState.ERR, d.vqState(0));
        assertEquals(VqState.RDY, d.vqState(1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"mlx5-pre612", "mlx5-611", "mlx5-612"})
    void setVqStateOnRdyIsEinval(String preset) {
        Mlx5Device d = running(Mlx5Presets.preset(preset));
        assertErrno(Errno.EINVAL, () -> d.setVqState(3, 100));
        d.suspend();
        assertEquals(OpCost.FREE, d.setVqState(3, 100), "allowed once suspended");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mlx5-pre612", "mlx5-611", "mlx5-612"})
    void suspendTwiceIsANoOp(String preset) {
        Mlx5Device d = running(Mlx5Presets.preset(preset));
        assertTrue(d.suspend().nanos() > 0);
        assertEquals(OpCost.FREE, d.suspend());
        assertTrue(d.suspended());
    }

    @Test
    void v612FirstVqGatesTheRange() {
        Mlx5Device d = running(V612);
        d.setVqReady(0, false);
        assertEquals(VqState.SUSPEND, d.vqState(0));
        assertEquals(OpCost.FREE, d.suspend(), "VQ 0 is not RDY, so nothing is suspended");
        assertEquals(VqState.RDY, d.vqState(1));
        assertEquals(VqState.RDY, d.vqState(31));
    }

    @Test
    void pre612GatesEachVqByItself() {
        Mlx5Device d = running(PRE);
        d.setVqReady(0, false);
        OpCost c = d.suspend();
        assertEquals(62, c.syncCommands(), "31 RDY VQs × (modify + query)");
        assertEquals(VqState.SUSPEND, d.vqState(31));
    }

    @Test
    void v612SuspendOfARangeBeyondTheActiveVqsIsEinvalAndIgnoredBySetVqReady() {
        Mlx5Device d = UpstreamScenarios.added(V612);
        d.setDriverFeatures(Mlx5NetFeatures.DEFAULT_DEVICE);
        UpstreamScenarios.configure(d);
        d.setStatus(UpstreamScenarios.STATUS_FEATURES_OK, UpstreamScenarios.STATUS_RUNNING);
        assertEquals(2, d.activeVqs());
        assertEquals(OpCost.FREE, d.setVqReady(5, false), "suspend_vqs(5, 1) with A = 2 returns −EINVAL, ignored");
        assertEquals(VqState.INIT, d.vqState(5));
    }

    @Test
    void fromInitTwoModifiesAreNeededFieldsThenState() {
        Mlx5Device d = UpstreamScenarios.added(V612);
        d.setTracing(true);
        d.setDriverFeatures(Mlx5NetFeatures.DEFAULT_DEVICE);
        UpstreamScenarios.configure(d);
        OpCost c = d.setStatus(UpstreamScenarios.STATUS_FEATURES_OK, UpstreamScenarios.STATUS_RUNNING);
        assertEquals(2, c.asyncBatches());
        assertEquals(4, c.asyncCommands());
        assertEquals(List.of("batch 2 × MODIFY_GENERAL_OBJECT", "batch 2 × MODIFY_GENERAL_OBJECT"), d.lastTrace());
        assertEquals(VqState.RDY, d.vqState(1));
        assertEquals(VqState.INIT, d.vqState(2), "VQs beyond A wait for the CVQ MQ command");
    }

    @Test
    void v612MrBuildIsOneBatchThenTheIndirectKey() {
        Mlx5Device d = UpstreamScenarios.added(V612);
        d.setTracing(true);
        d.setMap(1, UpstreamScenarios.guestMemory(4096));
        assertEquals(List.of("batch 256 × CREATE_MKEY", "sync CREATE_MKEY indirect mkey, 258 KLMs"), d.lastTrace());
    }

    @Test
    void pre612SuspendUnregistersTheNotifierAnd612KeepsIt() {
        Mlx5Device pre = running(PRE);
        pre.suspend();
        assertFalse(pre.notifierRegistered());
        Mlx5Device now = running(V612);
        now.suspend();
        assertTrue(now.notifierRegistered());
        OpCost reset = now.reset(false);
        assertFalse(now.notifierRegistered());
        assertTrue(reset.millis() >= Mlx5Params.DEFAULT.notifierUnregisterMs(), "reset still pays the unregister");
    }

    @Test
    void resumeOpIsAbsentWithoutFreezeToRdy() {
        Mlx5Device d = running(V612);
        d.setCapabilities(Mlx5Capabilities.DEFAULT.withoutResume());
        assertFalse(d.hasResumeOp());
        d.suspend();
        assertErrno(Errno.EOPNOTSUPP, d::resume);
    }

    @Test
    void setMapWhileRunningSuspendsSwapsAndResumesWithTheNewMkey() {
        Mlx5Device d = running(V612);
        int pending = d.pendingGcMrs();
        OpCost c = d.setMap(0, UpstreamScenarios.guestMemory(1L << 30));
        // build (1 batch + indirect) + suspend (2 batches) + resume (1 batch) ; old MR to the GC
        assertEquals(4, c.asyncBatches());
        assertEquals(pending + 1, d.pendingGcMrs());
        assertTrue(c.deferredNanos() > 0);
        for (int i = 0; i < 32; i++) {
            assertEquals(VqState.RDY, d.vqState(i));
        }
        double resumeWithFields = 0.05 + 0.01 + 11 * (Mlx5Params.DEFAULT.modifyRdyMs()
                + Mlx5Params.DEFAULT.modifyFieldsFromSuspendMs());
        assertTrue(c.millis() > resumeWithFields, "the MKEY travels with the RDY modify");
    }

    @Test
    void setMapWithoutResumeCapabilityRecreatesEveryVq() {
        Mlx5Device d = running(V612);
        d.setCapabilities(Mlx5Capabilities.DEFAULT.withoutResume());
        OpCost c = d.setMap(0, UpstreamScenarios.guestMemory(1L << 30));
        assertTrue(c.syncCommands() > 32 * 15, "teardown and filled re-create of all V: " + c.syncCommands());
        assertEquals(VqState.RDY, d.vqState(0));
    }

    @Test
    void modifyingFieldsOfARdyVqRefusesTheWholeBatch() {
        Mlx5Device d = running(V612);
        d.setVqAddress(5);
        assertErrno(Errno.EINVAL, d::suspend);
        assertEquals(VqState.RDY, d.vqState(0), "nothing was sent");
    }

    @Test
    void vqSizeChangeForcesFullRecreateAtDriverOk() {
        Mlx5Device d = running(V612);
        d.suspend();
        d.reset(false);
        UpstreamScenarios.configure(d);
        d.setVqNum(4, 128);
        assertTrue(d.needsTeardown());
        OpCost c = d.setStatus(UpstreamScenarios.STATUS_FEATURES_OK, UpstreamScenarios.STATUS_RUNNING);
        double pre612DriverOk = UpstreamScenarios.driverOkMq(PRE).step("driver_ok").millis();
        assertTrue(c.millis() > pre612DriverOk, "re-create (" + c.millis() + ") ≥ the ≤6.10 DRIVER_OK cost + teardown");
        assertFalse(d.needsTeardown());
    }

    @Test
    void featureDifferenceInCsumForcesRecreate() {
        Mlx5Device d = UpstreamScenarios.added(V611);
        d.setDriverFeatures(Mlx5NetFeatures.DEFAULT_DEVICE & ~Mlx5NetFeatures.bits(vhost_h.VIRTIO_NET_F_CSUM()));
        assertTrue(d.needsTeardown());
    }

    @Test
    void v611ResetOnlyRecreatesWhenNeeded() {
        Mlx5Device fresh = UpstreamScenarios.added(V611);
        assertEquals(2, fresh.reset(true).syncCommands(), "untouched VQs: only the DMA MR is destroyed and re-created");
        Mlx5Device configured = UpstreamScenarios.added(V611);
        configured.setDriverFeatures(Mlx5NetFeatures.DEFAULT_DEVICE);
        configured.setVqAddress(0);
        OpCost c = configured.reset(false);
        assertEquals(32 * 8 + 6 + 32 * 15 + 8, c.syncCommands(), "pending ring address on VQ 0: teardown + blank re-create");
    }

    @Test
    void devAddPreCreatesFrom611() {
        OpCost pre = new Mlx5Device(PRE, 16, Mlx5Capabilities.DEFAULT, Mlx5NetFeatures.DEFAULT_DEVICE).devAdd(32);
        OpCost v611 = new Mlx5Device(V611.withParams(Mlx5Params.SPEC), 16, Mlx5Capabilities.DEFAULT,
                Mlx5NetFeatures.DEFAULT_DEVICE).devAdd(32);
        assertEquals(10, pre.syncCommands());
        assertEquals(3, pre.millis(), 0.5, "≈3 ms uncalibrated");
        assertEquals(351.05, v611.millis() - pre.millis(), 0.01, "B3 + 32 blank VQs (the spec's arithmetic, §4.4)");
    }

    @Test
    void cvqMqShrinkAndGrow() {
        Mlx5Device now = running(V612);
        OpCost shrink = now.changeNumQueuePairs(4);
        assertEquals(1, shrink.syncCommands(), "MODIFY_RQT");
        assertEquals(2, shrink.asyncBatches(), "one B5 over the removed range");
        assertEquals(VqState.SUSPEND, now.vqState(8));
        assertEquals(8, now.activeVqs());
        OpCost grow = now.changeNumQueuePairs(16);
        assertEquals(1, grow.asyncBatches(), "suspended VQs resume in one batch");
        assertEquals(VqState.RDY, now.vqState(31));

        Mlx5Device pre = running(PRE);
        pre.changeNumQueuePairs(4);
        assertEquals(VqState.NONE, pre.vqState(8), "≤6.10 destroys the removed VQs");
        OpCost regrow = pre.changeNumQueuePairs(16);
        assertTrue(regrow.syncCommands() >= 24 * 16, "full creation again: " + regrow.syncCommands());
    }

    @Test
    void cvqMqErrors() {
        Mlx5Device d = running(V612);
        assertErrno(Errno.EINVAL, () -> d.changeNumQueuePairs(17));
        assertErrno(Errno.EINVAL, () -> d.changeNumQueuePairs(0));
        assertEquals(OpCost.FREE, d.changeNumQueuePairs(16), "same count: no work");
        Mlx5Device noMq = UpstreamScenarios.added(V612);
        noMq.setDriverFeatures(Mlx5NetFeatures.DEFAULT_DEVICE & ~Mlx5NetFeatures.bits(vhost_h.VIRTIO_NET_F_MQ()));
        assertErrno(Errno.EINVAL, () -> noMq.changeNumQueuePairs(2));
    }

    @Test
    void driverFeatureChecks() {
        Mlx5Device d = UpstreamScenarios.added(V612);
        assertErrno(Errno.EOPNOTSUPP, () -> d.setDriverFeatures(Mlx5NetFeatures.bits(vhost_h.VIRTIO_F_VERSION_1())));
        assertErrno(Errno.EINVAL, () -> d.setDriverFeatures(
                Mlx5NetFeatures.bits(vhost_h.VIRTIO_F_ACCESS_PLATFORM()) | Mlx5NetFeatures.bits(vhost_h.VIRTIO_NET_F_MQ())));
    }

    @Test
    void asidAndGroupLimits() {
        Mlx5Device d = UpstreamScenarios.added(V612);
        assertErrno(Errno.EINVAL, () -> d.setMap(2, List.of()));
        assertErrno(Errno.EINVAL, () -> d.setGroupAsid(0, 2));
        assertEquals(OpCost.FREE, d.setGroupAsid(2, 1), "descriptor group exists with desc_group_mkey_supported");
        Mlx5Device old = new Mlx5Device(V612, 1, new Mlx5Capabilities(true, false, true, true),
                Mlx5NetFeatures.DEFAULT_DEVICE);
        assertErrno(Errno.EINVAL, () -> old.setGroupAsid(2, 1));
    }

    @Test
    void indicesFollowTheNegotiatedFeatures() {
        Mlx5Device d = UpstreamScenarios.added(V612);
        assertErrno(Errno.EINVAL, () -> d.setVqAddress(2)); // before features only 0 and 1 are valid
        d.setDriverFeatures(Mlx5NetFeatures.DEFAULT_DEVICE);
        assertEquals(OpCost.FREE, d.setVqAddress(32), "the CVQ is index V with MQ");
        assertErrno(Errno.EINVAL, () -> d.getVqState(33));
    }

    @Test
    void clearingDriverOkWithoutResetIsRefused() {
        Mlx5Device d = running(V612);
        d.setStatus(UpstreamScenarios.STATUS_RUNNING, UpstreamScenarios.STATUS_FEATURES_OK);
        assertEquals(UpstreamScenarios.STATUS_RUNNING, d.status());
    }

    @Test
    void opsAfterDevDelAreAProgrammingError() {
        Mlx5Device d = running(V612);
        d.devDel();
        assertThrows(IllegalStateException.class, d::suspend);
    }
}
