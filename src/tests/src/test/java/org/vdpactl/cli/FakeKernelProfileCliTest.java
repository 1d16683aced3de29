package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI on the fake kernel speaking 6.1 (--fake-kernel): degrading the way docs/kernel-profiles.md says. */
class FakeKernelProfileCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private CliRun run(String... args) {
        List<String> full = new ArrayList<>(List.of("--backend", "fake", "--fake-state", dir.resolve("state.json").toString()));
        full.addAll(List.of(args));
        return CliRun.of(full.toArray(String[]::new));
    }

    @Test
    void theKernelVersionIsRememberedInTheStateFile() throws Exception {
        // read-only commands never write the state: the version is recorded by the next change
        assertEquals(0, run("--fake-kernel", "6.1", "dev", "list").exitCode());
        assertTrue(!Files.exists(dir.resolve("state.json")), "dev list wrote the state");
        CliRun add = run("--fake-kernel", "6.1", "dev", "add", "vdpa9", "--mgmtdev", "vdpasim_net");
        assertEquals(0, add.exitCode(), add.err());
        assertTrue(Files.readString(dir.resolve("state.json")).contains("\"kernel\" : \"6.1\""));
        CliRun next = run("vhost", "info", "vdpa0");
        assertEquals(0, next.exitCode(), next.err());
        assertTrue(next.out().contains("kernel: Linux 6.1 (fake kernel profile)"), next.out());
        CliRun del = run("--fake-kernel", "newest", "dev", "del", "vdpa9");
        assertEquals(0, del.exitCode(), del.err());
        assertTrue(Files.readString(dir.resolve("state.json")).contains("\"kernel\" : \"7.2\""));
    }

    @Test
    void anUnknownKernelIsAUsageError() {
        CliRun r = run("--fake-kernel", "5.4", "dev", "list");
        assertEquals(ExitCode.USAGE.code(), r.exitCode());
        assertEquals(1, r.errorLines(), r.err());
        assertTrue(r.err().contains("6.1|6.12|7.2"), r.err());
        assertTrue(r.noStackTrace());
    }

    @Test
    void doctorNamesWhatTheMissingFeaturesCost() throws Exception {
        CliRun r = run("--fake-kernel", "6.1", "doctor", "--json");
        JsonNode doc = JSON.readTree(r.out());
        String kernel = null;
        String vdpa0 = null;
        for (JsonNode c : doc.get("checks")) {
            if (c.get("id").asText().equals("kernel-features")) {
                kernel = c.get("detail").asText();
            }
            if (c.get("id").asText().equals("node:/dev/vhost-vdpa-0:features")) {
                vdpa0 = c.get("status").asText() + " " + c.get("detail").asText();
            }
        }
        assertTrue(kernel != null && kernel.contains("Linux 6.1") && kernel.contains("VHOST_VDPA_RESUME (from Linux 6.12)")
                && kernel.contains("VDPA_CMD_DEV_ATTR_SET (from Linux 6.12)"), kernel);
        assertTrue(vdpa0 != null && vdpa0.startsWith("WARN") && vdpa0.contains("no RESUME: rehearse resets and restarts instead of resuming"),
                vdpa0);
        CliRun now = run("--fake-kernel", "6.12", "doctor", "--json");
        assertFalse(now.out().contains("no RESUME"), "6.12's vdpa_sim has RESUME");
    }

    @Test
    void premapOn61IsRefusedBeforeAnyDeviceIsSetUp() {
        CliRun r = run("--fake-kernel", "6.1", "rehearse", "vdpa0", "--premap", "--memory", "64M");
        assertEquals(ExitCode.NOT_SUPPORTED.code(), r.exitCode(), r.err() + r.out());
        assertEquals(1, r.errorLines(), r.err());
        assertTrue(r.err().contains("IOTLB_PERSIST") && r.err().contains("vdpa0") && r.err().contains("first in Linux 6.12"), r.err());
        assertTrue(r.noStackTrace());
        assertEquals("", r.out().strip(), "no rehearsal ran");
        CliRun now = run("--fake-kernel", "6.12", "rehearse", "vdpa0", "--premap", "--memory", "64M");
        assertEquals(0, now.exitCode(), now.err());
    }

    @Test
    void devSetOn61IsOneLineNamingTheFirstKernelWithIt() {
        CliRun r = run("--fake-kernel", "6.1", "dev", "set", "vdpa0", "--mac", "02:00:00:00:00:09");
        assertEquals(ExitCode.NOT_SUPPORTED.code(), r.exitCode());
        assertEquals(1, r.errorLines(), r.err());
        assertTrue(r.err().contains("VDPA_CMD_DEV_ATTR_SET") && r.err().contains("first in Linux 6.12"), r.err());
        assertTrue(r.noStackTrace());
    }

    @Test
    void vhostInfoJsonCarriesTheKernelProfile() throws Exception {
        JsonNode k = JSON.readTree(run("--fake-kernel", "6.1", "vhost", "info", "vdpa0", "--json").out()).get("kernel");
        assertEquals("6.1", k.get("profile").asText());
        assertTrue(k.get("absent").toString().contains("VHOST_VDPA_GET_VRING_SIZE"), k.toString());
        assertTrue(k.get("costs").toString().contains("no RESUME"), k.toString());
        JsonNode now = JSON.readTree(run("--fake-kernel", "6.12", "vhost", "info", "vdpa0", "--json").out()).get("kernel");
        assertEquals(0, now.get("absent").size(), now.toString());
    }

    @Test
    void rehearseCompletesOn61WithTheRestartFallbackLabelled() throws Exception {
        // vdpa0 -> vdpa1 is not a valid pair (net/blk); split two net devices
        assertEquals(0, run("--fake-kernel", "6.1", "dev", "add", "vdpa7", "--mgmtdev", "vdpasim_net",
                "--mac", "02:00:00:00:00:07").exitCode());
        CliRun r = run("rehearse", "vdpa0", "vdpa7", "--split", "--iterations", "2", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode doc = JSON.readTree(r.out());
        assertEquals("completed", doc.get("outcome").asText());
        assertTrue(doc.get("fallbacks").toString().contains("reset and restart instead of resume"), doc.get("fallbacks").toString());
        CliRun text = run("rehearse", "vdpa0", "vdpa7", "--split", "--iterations", "2");
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("Fallback in restore: reset and restart instead of resume"), text.out());
    }

    @Test
    void rehearseOn61SaysWhyTheResumePhaseIsEmpty() throws Exception {
        CliRun r = run("--fake-kernel", "6.1", "rehearse", "vdpa0", "--iterations", "2", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode doc = JSON.readTree(r.out());
        assertEquals("completed", doc.get("outcome").asText());
        long notes = 0;
        for (JsonNode n : doc.get("notes")) {
            notes += n.asText().startsWith("vdpa0: no RESUME") && n.asText().contains("runs from DRIVER_OK") ? 1 : 0;
        }
        assertEquals(1, notes, "one note for two iterations: " + doc.get("notes"));
        CliRun with = run("--fake-kernel", "6.12", "rehearse", "vdpa0", "--iterations", "1", "--json");
        assertTrue(JSON.readTree(with.out()).get("notes").toString().indexOf("no RESUME") < 0, with.out());
    }
}
