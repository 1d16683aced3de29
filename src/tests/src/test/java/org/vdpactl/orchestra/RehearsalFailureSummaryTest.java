package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.RepositoryRoot;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.sys.Errno;
import org.vdpactl.time.VirtualClock;

/**
 * {@link RehearsalFailure#summary()}'s javadoc shows the line a user gets: the example is the real output of the
 * case it names (a SUSPEND refused with EIO on mlx5-2), read from the source so that it cannot drift.
 */
class RehearsalFailureSummaryTest {

    @Test
    void theJavadocExampleIsWhatSummaryReturns() throws IOException {
        String source = Files.readString(RepositoryRoot.find().resolve("src/orchestra/src/main/java/org/vdpactl/orchestra/RehearsalFailure.java"));
        Matcher doc = Pattern.compile("/\\*\\*((?:(?!\\*/).)*)\\*/\\s*public String summary\\(\\)", Pattern.DOTALL).matcher(source);
        assertTrue(doc.find(), "summary()'s javadoc");
        String javadoc = doc.group(1).replaceAll("\\n\\s*\\* ?", " ").replaceAll("\\s+", " ");
        Matcher example = Pattern.compile("\\{@code \"(.*?)\"\\}").matcher(javadoc);
        assertTrue(example.find(), "a {@code \"...\"} example in: " + javadoc);

        Inventory inv = new Inventory(List.of(new Inventory.Mgmt("mlx5", "pci", "0000:08:00.2", null)),
                List.of(new Inventory.Device("mlx5-2", "pci/0000:08:00.2", null, null, 1, null, null, null)));
        try (FakeKernel k = FakeInside.inventory(FakeKernel.builder().kernel("6.12"), inv)
                .fault(FaultRule.errnoAt("mlx5-2", "VHOST_VDPA_SUSPEND", 1, Errno.EIO)).build();
             FakeProcess p = k.newProcess()) {
            RehearsalResult r = new Rehearsal(p, new VirtualClock()).run(RehearsalPlan.builder(List.of(
                    new DeviceTarget("mlx5-2", "/dev/vhost-vdpa-0"))).memory(GuestMemoryLayout.of(64L << 20, 64L << 20, 4096, true)).build());
            assertFalse(r.completed());
            assertEquals(example.group(1), r.failure().summary());
        }
    }
}
