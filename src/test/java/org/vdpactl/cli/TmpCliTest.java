package org.vdpactl.cli;

import org.junit.jupiter.api.Test;

class TmpCliTest {
    @Test
    void show() {
        CliRun r = RehearseCommandTest.run("--backend", "fake", "--fake-state", "/tmp/orch-state.json", "rehearse", "--compare", "mlx5-pre612,mlx5-612");
        System.out.println(r.exitCode() + "\n" + r.out() + "\n" + r.err());
    }
}
