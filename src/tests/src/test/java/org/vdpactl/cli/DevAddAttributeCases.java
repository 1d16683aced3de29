package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.mgmt.VdpaAttribute;
import org.vdpactl.mgmt.VdpaAttributeSupport;
import org.vdpactl.mgmt.VdpaCommand;

/**
 * `vdpactl dev add` and the attributes a kernel's DEV_NEW accepts, run unchanged on each fake
 * profile (mvn test) and on each real kernel of the VM lane: the CLI's precheck asks the kernel's
 * policy dump (kernel-abi.md §7.6), lets through every attribute the kernel accepts, and leaves the
 * kernel's own refusals (vdpa_sim has no MAX_VQP) to the kernel. Expected values come from the
 * profile of the kernel under test; nothing here branches on the backend.
 */
abstract class DevAddAttributeCases {
    private static final String NAME = "kp0";
    /** vdpasim_net's device features on 6.1 (6.12+ add STATUS): a subset on every kernel, with MAC and MTU. */
    private static final String FEATURES = "0x308820028";
    private final ObjectMapper json = new ObjectMapper();
    private final List<String> created = new ArrayList<>();

    /** Runs the CLI against the backend under test. */
    abstract CliRun vdpactl(String... args);

    /** What the library's probe finds on the same backend (VdpaNetlink.attributeSupport, client closed). */
    abstract VdpaAttributeSupport probe();

    /** The facts the backend must show. */
    abstract KernelProfile kernel();

    @AfterEach
    void deleteCreated() {
        for (String name : created) {
            vdpactl("dev", "del", name);
        }
    }

    @Test
    void theProbeReadsThePolicyDumpAndFindsTheProfilesRequestAttributes() {
        {
            VdpaAttributeSupport s = probe();
            assertEquals(VdpaAttributeSupport.Source.POLICY_DUMP, s.source(), s.fallbackReason().orElse(""));
            Set<Integer> expected = new TreeSet<>();
            kernel().netlink().requestPolicy().forEach(e -> expected.add(e.number()));
            Set<Integer> accepted = new TreeSet<>();
            s.accepted(VdpaCommand.DEV_NEW).forEach(a -> accepted.add(a.number()));
            assertEquals(expected, accepted);
            String refusal = KernelFeatures.unknownAttribute(s, VdpaCommand.DEV_NEW, List.of(VdpaAttribute.DEV_BLK_READ_ONLY))
                    .orElseThrow();
            assertEquals("VDPA_ATTR_DEV_BLK_READ_ONLY is not accepted by this kernel's VDPA_CMD_DEV_NEW (no entry in its"
                    + " policy dump); first in a newer kernel", refusal);
        }
    }

    @Test
    void everyProvisioningOptionTheDriverSupportsIsLetThrough() throws Exception {
        created.add(NAME);
        CliRun add = vdpactl("--json", "dev", "add", NAME, "--mgmtdev", "vdpasim_net", "--mac", "02:00:00:00:00:21",
                "--mtu", "1400", "--features", FEATURES);
        assertEquals(0, add.exitCode(), add.err());
        CliRun cfg = vdpactl("--json", "dev", "config", NAME);
        assertEquals(0, cfg.exitCode(), cfg.err());
        var c = json.readTree(cfg.out()).get("config").get(NAME);
        assertEquals("02:00:00:00:00:21", c.get("mac").asText());
        assertEquals(1400, c.get("mtu").asInt());
    }

    @Test
    void maxVqpPassesThePrecheckAndGetsTheKernelsOwnRefusal() {
        created.add(NAME);
        CliRun add = vdpactl("dev", "add", NAME, "--mgmtdev", "vdpasim_net", "--max-vqp", "1");
        assertEquals(ExitCode.NOT_SUPPORTED.code(), add.exitCode(), add.err());
        assertEquals(1, add.errorLines(), add.err());
        assertTrue(add.noStackTrace(), add.err());
        assertTrue(add.err().startsWith("vdpactl: "), add.err());
        assertTrue(!add.err().contains("not accepted by this kernel") && !add.err().contains("not known to this kernel"),
                "the policy accepts MAX_VQP on every kernel: the refusal is vdpa_sim's config_attr_mask\n" + add.err());
        assertTrue(add.err().contains("not supported"), add.err());
    }
}
