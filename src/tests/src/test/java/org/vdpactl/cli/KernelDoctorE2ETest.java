package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.vdpactl.sys.PanamaSyscalls;
import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.BackendFeatures;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * `vdpactl doctor` in the real-kernel lane: each vdpa_sim node is OK when the device offers SUSPEND,
 * RESUME and IOTLB_PERSIST, and otherwise a WARN naming each missing feature with its cost (6.1's
 * vdpa_sim has no RESUME and no IOTLB_PERSIST). What the device has is asked of the device itself.
 */
@Tag("kernel")
class KernelDoctorE2ETest {
    private static final List<BackendFeature> COSTED = List.of(BackendFeature.SUSPEND, BackendFeature.RESUME,
            BackendFeature.IOTLB_PERSIST, BackendFeature.IOTLB_ASID);

    @Test
    void reportsTheSimulatorDevicesReady() throws Exception {
        CliRun r = CliRun.of("--backend", "kernel", "--json", "doctor");
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertFalse(doc.get("simulated").asBoolean());
        int checkedNodes = 0;
        for (JsonNode c : doc.get("checks")) {
            String id = c.get("id").asText();
            if (id.startsWith("module:vdpa") || id.equals("module:vhost_vdpa")) {
                assertEquals("OK", c.get("status").asText(), c.toString());
            }
            if (id.startsWith("node:/dev/vhost-vdpa-") && id.endsWith(":features")) {
                String path = id.substring("node:".length(), id.length() - ":features".length());
                BackendFeatures offered = offeredBy(path);
                List<BackendFeature> missing = COSTED.stream().filter(f -> !offered.has(f)).toList();
                String detail = c.get("detail").asText();
                assertEquals(missing.isEmpty() ? "OK" : "WARN", c.get("status").asText(), offered + ": " + c);
                assertTrue(detail.contains("SUSPEND"), c.toString());
                for (BackendFeature f : missing) {
                    assertTrue(detail.contains("no " + f.name() + ":"), f + " missing from " + offered + ": " + c);
                }
                if (offered.has(BackendFeature.RESUME)) {
                    assertFalse(detail.contains("no RESUME"), c.toString());
                }
                checkedNodes++;
            }
        }
        assertEquals(2, checkedNodes, "vdpa0 and vdpa1: " + r.out());
    }

    /** GET_BACKEND_FEATURES of the node (no owner needed), closed again before anything else opens it. */
    private static BackendFeatures offeredBy(String path) {
        try (VhostVdpaDevice d = VhostVdpaDevice.open(new PanamaSyscalls(), path)) {
            return d.getBackendFeatures();
        }
    }
}
