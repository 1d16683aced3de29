package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.model.OpCost;
import org.vdpactl.sim.UpstreamScenarios;

/** v6.12 deferred MR deletion (§2.4, §5 #18) on a logical clock the test moves by hand. */
class Mlx5GarbageCollectorTest {
    private static final Mlx5Preset PRE = Mlx5Presets.preset("mlx5-pre612");
    private static final Mlx5Preset V612 = Mlx5Presets.preset("mlx5-612");
    private static final long MS = 1_000_000L;
    private static final double GC_WORK_MS = UpstreamScenarios.mrRelease(V612, 4096).deferredMs();

    private final AtomicLong now = new AtomicLong();

    private Mlx5Device deviceWithFullMap() {
        Mlx5Device d = UpstreamScenarios.added(V612);
        d.useClock(now::get);
        d.setMap(1, UpstreamScenarios.guestMemory(4096));
        return d;
    }

    @Test
    void releaseGoesToTheGcAndOffThePath() {
        Mlx5Device d = deviceWithFullMap();
        OpCost c = d.setMap(1, List.of());
        assertEquals(0, c.nanos());
        assertEquals(GC_WORK_MS, c.deferredNanos() / 1e6, 1e-6);
        assertEquals(1, d.pendingGcMrs());

        Mlx5Device pre = UpstreamScenarios.added(PRE);
        pre.setMap(1, UpstreamScenarios.guestMemory(4096));
        OpCost inline = pre.setMap(1, List.of());
        assertEquals(0, inline.deferredNanos(), "≤6.11 destroys in the caller");
        assertEquals(0, pre.pendingGcMrs());
        assertTrue(inline.millis() > GC_WORK_MS);
    }

    @Test
    void timerFiresTwoSecondsAfterTheFirstReleaseAndIsNotPushedBack() {
        Mlx5Device d = deviceWithFullMap();
        now.set(1_000 * MS);
        d.setMap(1, List.of());
        assertEquals(3_000, d.gcFireAtMs(), 1e-6);
        now.set(2_000 * MS);
        d.setMap(0, UpstreamScenarios.guestMemory(1L << 30)); // releases the DMA MR: joins the batch
        assertEquals(2, d.pendingGcMrs());
        assertEquals(3_000, d.gcFireAtMs(), 1e-6);
        now.set(3_000 * MS + 1);
        d.getVqState(0);
        assertEquals(0, d.pendingGcMrs());
        assertTrue(Double.isNaN(d.gcFireAtMs()));
    }

    @Test
    void setMapWaitsWhileTheGcDestroys() {
        Mlx5Device d = deviceWithFullMap();
        d.setMap(1, List.of());
        double fireAt = d.gcFireAtMs();
        now.set(Math.round((fireAt + 10) * MS));
        OpCost build = d.setMap(1, UpstreamScenarios.guestMemory(4096));
        double plain = UpstreamScenarios.mrBuild(V612, 4096).driverMs();
        assertEquals(plain + GC_WORK_MS - 10, build.millis(), 1e-3);
    }

    @Test
    void gcBacksOffWhileAnMrBuildHoldsTheLock() {
        Mlx5Device d = deviceWithFullMap();
        d.setMap(1, List.of());
        double fireAt = d.gcFireAtMs();
        now.set(Math.round((fireAt - 100) * MS));
        d.setMap(0, UpstreamScenarios.guestMemory(4096)); // a 516 ms build spans the firing time
        now.set(Math.round((fireAt + 600) * MS));
        d.getVqState(0);
        assertEquals(fireAt + 2_000, d.gcFireAtMs(), 1e-6, "re-armed for another delay");
        assertEquals(2, d.pendingGcMrs(), "the DMA MR released meanwhile joined the list");
    }

    @Test
    void withoutAClockTheGcRunsOnDemandOrAtDeviceFree() {
        Mlx5Device d = UpstreamScenarios.added(V612);
        d.setMap(1, UpstreamScenarios.guestMemory(4096));
        d.setMap(1, List.of());
        OpCost gc = d.runGarbageCollector();
        assertEquals(GC_WORK_MS, gc.millis(), 1e-6);
        assertEquals(1, gc.asyncBatches(), "the parallel destroy batch");
        assertEquals(0, d.pendingGcMrs());

        Mlx5Device e = UpstreamScenarios.added(V612);
        e.setMap(1, UpstreamScenarios.guestMemory(4096));
        e.setMap(1, List.of());
        OpCost del = e.devDel();
        assertTrue(del.millis() > GC_WORK_MS, "device free flushes the GC synchronously");
    }
}
