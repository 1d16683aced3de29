package org.vdpactl.orchestra;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.cli.rehearse.SimulatedHost;
import org.vdpactl.time.VirtualClock;

class DebugFaultTest {
    @Test
    void show() {
        for (int i = 0; i < 6; i++) {
            try (SimulatedHost h = SimulatedHost.mlx5(64, 16, "mlx5-612", new VirtualClock(), List.of())) {
                RehearsalPlan plan = RehearsalPlan.builder(h.devices()).strategy(Strategy.PARALLEL).queuePairs(1).iterations(3).build();
                long[] t = new long[2];
                RehearsalResult r = h.rehearsal().listener(new RehearsalListener() {
                    @Override
                    public void setUpDone(int d) {
                        t[0] = System.nanoTime();
                    }

                    @Override
                    public void windowDone(int index) {
                        System.out.printf("window %d real %.1f ms%n", index, (System.nanoTime() - t[0]) / 1e6);
                        t[0] = System.nanoTime();
                    }
                }).run(plan);
                long calls = r.lastIteration().windowSpans().size();
                System.out.println("calls per window " + calls);
            }
        }
    }
}
