package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.vdpactl.sys.PanamaSyscalls;
import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * {@code vdpactl rehearse} on the VM lane's real vdpa_sim devices (vdpa0 = vdpasim_net, vdpa1 =
 * vdpasim_blk): every window call is real (suspend, vring bases, reset, features and vrings, the
 * IOTLB batch, DRIVER_OK, the vrings' enables) and both devices end running. Runs only in the real-kernel lane.
 */
@Tag("kernel")
class RehearseKernelE2ETest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void rehearsesBothSimulatorDevicesWithEveryStrategy() throws Exception {
        // 6.1's vdpa_sim has SUSPEND but no RESUME: the expected calls follow what each device offers.
        Map<String, Boolean> resume = new HashMap<>();
        for (String d : List.of("vdpa0", "vdpa1")) {
            try (VhostVdpaDevice dev = VhostVdpaDevice.open(new PanamaSyscalls(), "/dev/vhost-vdpa-" + d.charAt(4))) {
                resume.put(d, dev.getBackendFeatures().has(BackendFeature.RESUME));
            }
        }
        for (String strategy : List.of("serial", "parallel", "pipelined")) {
            CliRun r = RehearseCommandTest.run("--backend", "kernel", "--json", "rehearse", "vdpa0", "vdpa1", "--strategy", strategy,
                    "--iterations", "3", "--memory", "256M", "--regions", "64M");
            assertEquals(0, r.exitCode(), strategy + ": " + r.err() + r.out());
            JsonNode doc = json.readTree(r.out());
            assertEquals("completed", doc.get("outcome").asText());
            assertTrue(!doc.get("simulated").asBoolean(), "the kernel's figures are not simulated");
            assertEquals(3, doc.get("iterations").size());
            Set<String> calls = new HashSet<>();
            for (JsonNode s : doc.at("/iterations/2/spans")) {
                assertEquals(0, s.get("errno").asInt(), s.toString());
                calls.add(s.get("device").asText() + " " + s.get("call").asText().split(" vq")[0]);
            }
            for (String d : List.of("vdpa0", "vdpa1")) {
                for (String c : List.of("VHOST_VDPA_SUSPEND", "VHOST_GET_VRING_BASE", "VHOST_VDPA_SET_STATUS 0 (reset)",
                        "VHOST_SET_VRING_BASE", "write IOTLB UPDATE", "write IOTLB BATCH_END", "VHOST_VDPA_SET_STATUS DRIVER_OK")) {
                    assertTrue(calls.contains(d + " " + c), strategy + ": no " + c + " on " + d + " in " + calls);
                }
                // the window resets and restarts every device (DRIVER_OK): nothing is left suspended, so no
                // RESUME even where the device offers it (QEMU 10.0 restarts a stopped device the same way)
                assertFalse(calls.contains(d + " VHOST_VDPA_RESUME"), strategy + ": RESUME after a restart on " + d + ": " + calls);
            }
            // ... and a device without RESUME needs no fallback: its resume phase runs no call at all
            Set<String> phases = new HashSet<>();
            doc.at("/iterations/2/phases").forEach(p -> phases.add(p.get("phase").asText()));
            assertFalse(phases.contains("resume"), strategy + ": phases " + phases);
            assertTrue(doc.get("fallbacks") == null || doc.get("fallbacks").isNull(), strategy + ": " + doc.get("fallbacks"));
            // ... and the empty phase is labelled, per device, in the notes (table, JSON and HTML render them).
            // one note names every such device ("vdpa0, vdpa1: no RESUME ..."), said once rather than per device
            String notes = doc.get("notes").toString();
            for (String d : List.of("vdpa0", "vdpa1")) {
                boolean named = false;
                for (JsonNode n : doc.get("notes")) {
                    String text = n.asText();
                    int colon = text.indexOf(": no RESUME");
                    named |= colon > 0 && List.of(text.substring(0, colon).split(", ")).contains(d);
                }
                assertEquals(!resume.get(d), named, strategy + ": notes " + notes);
            }
            for (JsonNode d : doc.get("devices")) {
                assertEquals("RUNNING", d.get("state").asText(), d.toString());
            }
        }
    }

    @Test
    void splitRehearsalRestoresTheSourceAndLabelsTheRestartFallbackWithoutResume() throws Exception {
        // Source vdpa0 -> a second vdpasim_net device: the suspended source is restored after each
        // iteration, by RESUME where the device has it, else (6.1) by reset and restart, labelled.
        String dest = "vdpa-split";
        CliRun add = RehearseCommandTest.run("--backend", "kernel", "dev", "add", dest, "--mgmtdev", "vdpasim_net",
                "--mac", "02:00:00:00:00:5a");
        assertEquals(0, add.exitCode(), add.err());
        try {
            boolean resume;
            try (VhostVdpaDevice dev = VhostVdpaDevice.open(new PanamaSyscalls(), "/dev/vhost-vdpa-0")) {
                resume = dev.getBackendFeatures().has(BackendFeature.RESUME);
            }
            CliRun r = RehearseCommandTest.run("--backend", "kernel", "--json", "rehearse", "vdpa0", dest, "--split",
                    "--iterations", "2", "--memory", "256M", "--regions", "64M");
            assertEquals(0, r.exitCode(), r.err() + r.out());
            JsonNode doc = json.readTree(r.out());
            assertEquals("completed", doc.get("outcome").asText());
            JsonNode fallbacks = doc.get("fallbacks");
            boolean labelled = fallbacks != null && fallbacks.toString().contains("reset and restart instead of resume");
            assertEquals(!resume, labelled, "RESUME offered: " + resume + ", fallbacks " + fallbacks);
            // The source runs again (restored); the destination is left reset and unmapped.
            for (JsonNode d : doc.get("devices")) {
                boolean source = d.get("role").asText().equals("source");
                assertEquals(source ? "RUNNING" : "RESET", d.get("state").asText(), d.toString());
            }
            CliRun text = RehearseCommandTest.run("--backend", "kernel", "rehearse", "vdpa0", dest, "--split",
                    "--iterations", "1", "--memory", "256M", "--regions", "64M");
            assertEquals(0, text.exitCode(), text.err());
            assertEquals(!resume, text.out().contains("Fallback in restore: reset and restart instead of resume"), text.out());
        } finally {
            CliRun del = RehearseCommandTest.run("--backend", "kernel", "dev", "del", dest);
            assertEquals(0, del.exitCode(), del.err());
        }
    }

    @Test
    void premapKeepsTheMapOutOfTheWindowWithIotlbPersist() throws Exception {
        CliRun r = RehearseCommandTest.run("--backend", "kernel", "--json", "rehearse", "vdpa0", "--premap", "--memory", "256M");
        boolean persist;
        try (VhostVdpaDevice d = VhostVdpaDevice.open(new PanamaSyscalls(), "/dev/vhost-vdpa-0")) {
            persist = d.getBackendFeatures().has(BackendFeature.IOTLB_PERSIST);
        }
        if (!persist) {
            // 6.1: no fallback exists; refused up front in one line naming the feature and the first kernel with it
            assertEquals(ExitCode.NOT_SUPPORTED.code(), r.exitCode(), r.err() + r.out());
            assertEquals(1, r.errorLines(), r.err());
            assertTrue(r.err().contains("IOTLB_PERSIST") && r.err().contains("first in Linux 6.12"), r.err());
            // nothing ran: stdout holds only the --json error document, with the same message
            JsonNode error = json.readTree(r.out()).get("error");
            assertEquals(ExitCode.NOT_SUPPORTED.name(), error.get("name").asText(), r.out());
            assertTrue(error.get("message").asText().contains("IOTLB_PERSIST"), r.out());
            assertTrue(r.out().indexOf("iterations") < 0, "no rehearsal data: " + r.out());
            return;
        }
        assertEquals(0, r.exitCode(), r.err() + r.out());
        JsonNode doc = json.readTree(r.out());
        assertEquals("completed", doc.get("outcome").asText());
        for (JsonNode s : doc.at("/iterations/0/spans")) {
            assertTrue(!s.get("call").asText().startsWith("write IOTLB"), "IOTLB write inside the premapped window: " + s);
        }
        boolean mappedInSetup = false;
        for (JsonNode s : doc.get("setup")) {
            mappedInSetup |= s.get("call").asText().equals("write IOTLB BATCH_END");
        }
        assertTrue(mappedInSetup);
        assertEquals("RUNNING", doc.at("/devices/0/state").asText());
    }
}
