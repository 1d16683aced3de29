package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.ResourceLimit;
import org.vdpactl.sim.SimulatedHost;
import org.vdpactl.time.VirtualClock;

/**
 * {@link Rehearsal#FILE_DESCRIPTORS_PER_DEVICE} and {@link Rehearsal#FILE_DESCRIPTORS_PER_REHEARSAL}
 * are exact for every strategy: a fake process whose RLIMIT_NOFILE leaves room for exactly that many
 * completes the rehearsal, one descriptor less fails it with EMFILE. The CLI checks the limits
 * against these before touching a device, so a count that is too low lets a run fail midway.
 */
class RehearsalDescriptorBudgetTest {
    private static final int DEVICES = 4;
    /** fds 0-2 are stdio, which the fake does not model but does not hand out either. */
    private static final int FIRST_FD = 3;

    @Test
    void theBudgetIsExactForEveryStrategy() {
        int limit = FIRST_FD + DEVICES * Rehearsal.FILE_DESCRIPTORS_PER_DEVICE + Rehearsal.FILE_DESCRIPTORS_PER_REHEARSAL;
        for (Strategy s : Strategy.values()) {
            for (WindowMode w : WindowMode.values()) {
                assertTrue(completes(s, w, limit), s + ", " + w + " with RLIMIT_NOFILE " + limit);
                assertFalse(completes(s, w, limit - 1), s + ", " + w + " with RLIMIT_NOFILE " + (limit - 1));
            }
        }
    }

    private static boolean completes(Strategy strategy, WindowMode window, int nofile) {
        try (SimulatedHost h = SimulatedHost.mlx5(DEVICES, 16, "mlx5-612", new VirtualClock(), List.of(), ResourceLimit.of(nofile))) {
            RehearsalPlan plan = RehearsalPlan.builder(h.devices()).strategy(strategy).window(window).build();
            RehearsalResult r = h.rehearsal().run(plan);
            if (!r.completed()) {
                assertTrue(r.failure().summary().contains("EMFILE"), r.failure().summary());
            }
            return r.completed();
        } catch (RuntimeException e) {
            assertTrue(String.valueOf(e.getMessage()).contains("EMFILE"), String.valueOf(e));
            return false;
        }
    }
}
