package org.vdpactl.orchestra;

import org.junit.jupiter.api.Test;
import org.vdpactl.report.RehearsalText;
import org.vdpactl.report.RunInfo;

class SmokeTest {
    @Test
    void runsDefault() {
        try (FakeRig rig = FakeRig.mlx5(4, 16, "mlx5-612")) {
            RehearsalPlan plan = RehearsalPlan.builder(rig.devices).strategy(Strategy.PARALLEL).queuePairs(1).iterations(3).build();
            RehearsalResult r = rig.rehearsal().run(plan);
            System.out.println(RehearsalText.render(r, new RunInfo(true, "fake", "virtual", "test")));
        }
    }
}
