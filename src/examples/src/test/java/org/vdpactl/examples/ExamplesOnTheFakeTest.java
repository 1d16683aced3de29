package org.vdpactl.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.example.suspendpolicy.SuspendAll;
import com.example.suspendpolicy.SuspendAll.Outcome;
import com.example.suspendpolicy.SuspendAll.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;

/** Each documented example, run against the fake kernel through the exported API only. */
class ExamplesOnTheFakeTest {

    @Test
    void theFirstProgramSuspendsTheDevicesOfOneManagementDevice() {
        try (FakeKernel kernel = FakeKernel.builder().kernel("6.12").vdpaNetlink().build();
             FakeProcess p = kernel.newProcess()) {
            // the default inventory: vdpa0 on vdpasim_net, vdpa1 on vdpasim_blk, mlx5-0 … mlx5-3 on the PCI functions
            assertEquals(List.of(new Result("vdpa0", Outcome.SUSPENDED, null)), new SuspendAll(p).suspend("vdpasim_net"));
            assertEquals(List.of(new Result("mlx5-0", Outcome.SUSPENDED, null)), new SuspendAll(p).suspend("pci/0000:08:00.2"));
        }
    }

    @Test
    void buildingOneGivesAKernelWithTheFileFaultRules(@TempDir Path tmp) throws IOException {
        Path rules = Files.writeString(tmp.resolve("faults.json"),
                "{\"rules\": [{\"device\": \"vdpa0\", \"call\": \"VHOST_VDPA_SUSPEND\", \"errno\": \"EIO\"}]}");
        try (FakeKernel k = BuildingOne.build(rules); FakeProcess p = k.newProcess()) {
            assertEquals(1, k.faults().rules().size());
            assertEquals(List.of(new Result("vdpa0", Outcome.FAILED, "EIO")), new SuspendAll(p).suspend("vdpasim_net"));
        }
    }
}
