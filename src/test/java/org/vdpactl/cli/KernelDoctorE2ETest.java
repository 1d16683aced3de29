package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** `vdpactl doctor` in the real-kernel lane: the vdpa_sim devices are ready for suspend/resume migration. */
@Tag("kernel")
class KernelDoctorE2ETest {
    @Test
    void reportsTheSimulatorDevicesReady() throws Exception {
        CliRun r = CliRun.of("--backend", "kernel", "--json", "doctor");
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertFalse(doc.get("simulated").asBoolean());
        int readyNodes = 0;
        for (JsonNode c : doc.get("checks")) {
            String id = c.get("id").asText();
            if (id.startsWith("module:vdpa") || id.equals("module:vhost_vdpa")) {
                assertEquals("OK", c.get("status").asText(), c.toString());
            }
            if (id.startsWith("node:/dev/vhost-vdpa-") && id.endsWith(":features")) {
                assertEquals("OK", c.get("status").asText(), c.toString());
                assertTrue(c.get("detail").asText().contains("SUSPEND") && c.get("detail").asText().contains("RESUME"), c.toString());
                readyNodes++;
            }
        }
        assertEquals(2, readyNodes, "vdpa0 and vdpa1: " + r.out());
    }
}
