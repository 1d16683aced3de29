package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Scale;

/** The discrete-event batch rule of §4.1 against its exact and closed forms on any batch (jqwik; the examples are Mlx5AsyncBatchTest). */
class Mlx5AsyncBatchProperties {
    @Property(tries = 300)
    void identicalCommandsFollowTheExactClosedForm(@ForAll @IntRange(min = 1, max = 300) int n,
            @ForAll @DoubleRange(min = 0.001, max = 2) @Scale(4) double iss,
            @ForAll @DoubleRange(min = 0.01, max = 8) @Scale(4) double s,
            @ForAll @IntRange(min = 1, max = 8) int servers) {
        // an outstanding limit that never binds, so only issuer and servers shape the batch
        double des = AsyncBatch.simulate(Mlx5AsyncBatchTest.identical(n, iss, s), servers, Integer.MAX_VALUE, 0.05).durationMs();
        assertEquals(AsyncBatch.exactForm(n, iss, s, servers, 0.05), des, 1e-6);
        double gap = des - AsyncBatch.closedForm(n, iss, s, servers, 0.05);
        assertTrue(gap >= -1e-6 && gap <= (servers - 1) * iss + 1e-6, "gap " + gap);
    }

    @Property(tries = 200)
    void theThrottleOfTheSpecNeverStarvesTheServers(@ForAll @IntRange(min = 1, max = 256) int n,
            @ForAll @DoubleRange(min = 0.05, max = 2) @Scale(4) double s) {
        // general objects: P = 16, F = 3, iss 0.01, rt 0.05 (rt < s keeps ≥ F commands queued)
        assertEquals(AsyncBatch.exactForm(n, 0.01, s, 3, 0.05), Mlx5AsyncBatchTest.run(n, 0.01, s, 3, 16, 0.05), 1e-6);
    }
}
