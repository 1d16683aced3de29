package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI on the fake backend, one in-process invocation per command like a shell session: devices
 * added by one command are seen by the next through the state file.
 */
class FakeCliEndToEndTest {
    private final ObjectMapper json = new ObjectMapper();

    @TempDir
    Path dir;

    private CliRun vdpactl(String... args) {
        return CliRun.onFake(dir.resolve("state.json"), args);
    }

    @Test
    void freshStateShowsTheDefaultInventoryInIproute2Shape() throws Exception {
        CliRun mgmt = vdpactl("--json", "mgmtdev", "list");
        assertEquals(0, mgmt.exitCode(), mgmt.err());
        JsonNode m = json.readTree(mgmt.out()).get("mgmtdev");
        assertTrue(m.has("vdpasim_net") && m.has("vdpasim_blk") && m.has("pci/0000:08:00.2"), m.toString());
        assertEquals("net", m.get("vdpasim_net").get("supported_classes").get(0).asText());
        assertEquals(3, m.get("vdpasim_net").get("max_supported_vqs").asInt());
        assertEquals("[\"net\",\"block\"]", m.get("vduse").get("supported_classes").toString(), "a kernel built with VDUSE");
        assertEquals(0, m.get("vduse").get("max_supported_vqs").asInt());

        CliRun devs = vdpactl("--json", "dev", "list");
        JsonNode d = json.readTree(devs.out()).get("dev");
        assertEquals("network", d.get("vdpa0").get("type").asText());
        assertEquals("vdpasim_net", d.get("vdpa0").get("mgmtdev").asText());
        assertEquals("block", d.get("vdpa1").get("type").asText());
        assertEquals(33, d.get("mlx5-0").get("max_vqs").asInt(), "16 VQ pairs + CVQ");
    }

    @Test
    void addShowConfigDeleteRoundTripAcrossInvocations() throws Exception {
        CliRun add = vdpactl("dev", "add", "t1", "--mgmtdev", "vdpasim_net", "--mac", "02:00:00:00:00:09", "--mtu", "9000");
        assertEquals(0, add.exitCode(), add.err());
        JsonNode cfg = json.readTree(vdpactl("--json", "dev", "config", "t1").out()).get("config").get("t1");
        assertEquals("02:00:00:00:00:09", cfg.get("mac").asText());
        assertEquals(9000, cfg.get("mtu").asInt());
        assertEquals("up", cfg.get("link").asText());

        CliRun info = vdpactl("--json", "vhost", "info", "t1");
        assertEquals(0, info.exitCode(), info.err());
        assertEquals("02:00:00:00:00:09", json.readTree(info.out()).get("config").get("mac").asText());

        assertEquals(0, vdpactl("dev", "del", "t1").exitCode());
        CliRun gone = vdpactl("dev", "show", "t1");
        assertEquals(ExitCode.NOT_FOUND.code(), gone.exitCode());
        assertTrue(gone.err().contains("device not found"), gone.err());
    }

    @Test
    void setMacChangesTheConfigAndIsRefusedOnABlockDevice() throws Exception {
        assertEquals(0, vdpactl("dev", "set", "vdpa0", "--mac", "02:00:00:00:00:42").exitCode());
        JsonNode cfg = json.readTree(vdpactl("--json", "dev", "config", "vdpa0").out()).get("config").get("vdpa0");
        assertEquals("02:00:00:00:00:42", cfg.get("mac").asText());
        CliRun blk = vdpactl("dev", "set", "vdpa1", "--mac", "02:00:00:00:00:43");
        assertEquals(ExitCode.NOT_SUPPORTED.code(), blk.exitCode());
        assertTrue(blk.err().contains("vdpa1 device not supported"), blk.err());
    }

    @Test
    void badManagementInputEndsInOneLineAndLeavesNothingBehind() throws Exception {
        expect(ExitCode.USAGE, "not a MAC address", "dev", "add", "x", "--mgmtdev", "vdpasim_net", "--mac", "02-00-00-00-00-07");
        expect(ExitCode.USAGE, "out of range", "dev", "add", "x", "--mgmtdev", "vdpasim_net", "--mtu", "67");
        expect(ExitCode.USAGE, "out of range", "dev", "add", "x", "--mgmtdev", "pci/0000:08:00.2", "--max-vqp", "0");
        expect(ExitCode.USAGE, "exceeds", "dev", "add", "x", "--mgmtdev", "pci/0000:08:00.2", "--max-vqp", "40");
        expect(ExitCode.NOT_FOUND, "Fail to find", "dev", "add", "x", "--mgmtdev", "nosuch");
        expect(ExitCode.KERNEL_ERROR, "EEXIST", "dev", "add", "vdpa0", "--mgmtdev", "vdpasim_net");
        expect(ExitCode.NOT_SUPPORTED, "max_vqp", "dev", "add", "x", "--mgmtdev", "vdpasim_blk", "--max-vqp", "1");
        expect(ExitCode.USAGE, "unknown feature", "dev", "add", "x", "--mgmtdev", "vdpasim_net", "--features", "NOPE");
        expect(ExitCode.NOT_FOUND, "device not found", "dev", "del", "nosuch");
        expect(ExitCode.USAGE, "--qidx", "dev", "vstats", "vdpa0");
        JsonNode d = json.readTree(vdpactl("--json", "dev", "list").out()).get("dev");
        assertFalse(d.has("x"), "a failed add left a device behind: " + d);
    }

    @Test
    void badRehearsalInputIsRefusedBeforeAnyDeviceIsTouched() throws Exception {
        Path unreadable = Files.writeString(dir.resolve("layout.json"), "{\"regions\": [ {\"size\": ");
        expect(ExitCode.USAGE, "--memory", "rehearse", "--memory", "lots");
        expect(ExitCode.USAGE, "--regions", "rehearse", "--regions", "-1G");
        expect(ExitCode.USAGE, "iterations must be at least 1", "rehearse", "--iterations", "-2");
        expect(ExitCode.USAGE, "--devices", "rehearse", "--devices", "-3");
        expect(ExitCode.USAGE, "unknown strategy", "rehearse", "--strategy", "sideways");
        expect(ExitCode.USAGE, "layout.json", "rehearse", "--memory-layout", unreadable.toString());
        // a missing input file is a path not found, as a missing output directory (README "Exit codes")
        expect(ExitCode.NOT_FOUND, "nope.json", "rehearse", "--memory-layout", dir.resolve("nope.json").toString());
        expect(ExitCode.NOT_FOUND, "nosuch", "rehearse", "nosuch");
        expect(ExitCode.USAGE, "mlx5-bogus", "rehearse", "--compare", "mlx5-pre612,mlx5-bogus");
    }

    @Test
    void mlx5DevicesAreOnePerManagementDevice() {
        expect(ExitCode.KERNEL_ERROR, "ENOSPC", "dev", "add", "x", "--mgmtdev", "pci/0000:08:00.2");
    }

    @Test
    void corruptStateFileIsAOneLineUsageError() throws Exception {
        Files.writeString(dir.resolve("state.json"), "{ not json");
        CliRun r = vdpactl("dev", "list");
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err());
        assertTrue(r.noStackTrace(), r.err());
        assertEquals(1, r.errorLines(), r.err());
    }

    @Test
    void stateFileIsPrivate() throws Exception {
        assertEquals(0, vdpactl("dev", "add", "t9", "--mgmtdev", "vdpasim_net").exitCode());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("state.json"))));
    }

    @Test
    void malformedFaultFileIsAUsageError() throws Exception {
        Path faults = Files.writeString(dir.resolve("faults.json"), "[{\"call\": 12");
        CliRun r = vdpactl("--fake-faults", faults.toString(), "dev", "list");
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains("--fake-faults"), r.err());
        assertTrue(r.noStackTrace(), r.err());
    }

    @Test
    void suspendAndResumeReportEveryDevice() throws Exception {
        CliRun r = vdpactl("--json", "vhost", "suspend", "mlx5-0", "mlx5-1", "--and-resume");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode doc = json.readTree(r.out());
        assertTrue(doc.get("simulated").asBoolean());
        assertEquals(4, doc.get("results").size());
        assertEquals("mlx5-0", doc.get("results").get(0).get("device").asText());
    }

    @Test
    void faultRulesFromTheCommandLineFailOneDeviceAndTheOthersAreReported() throws Exception {
        Path faults = Files.writeString(dir.resolve("faults.json"),
                "{\"rules\": [{\"device\": \"mlx5-1\", \"call\": \"VHOST_VDPA_SUSPEND\", \"errno\": \"EIO\"}]}");
        CliRun r = vdpactl("--fake-faults", faults.toString(), "--json", "vhost", "suspend", "mlx5-0", "mlx5-1");
        assertEquals(ExitCode.PARTIAL.code(), r.exitCode(), r.err());
        JsonNode results = json.readTree(r.out()).get("results");
        assertEquals("mlx5-0", results.get(0).get("device").asText());
        assertTrue(results.get(0).get("error").isNull(), results.toString());
        assertTrue(results.get(1).get("error").asText().contains("EIO"), results.toString());
    }

    @Test
    void firmwareTimeoutRuleEndsInEtimedout() throws Exception {
        Path faults = Files.writeString(dir.resolve("faults.json"),
                "[{\"device\": \"mlx5-0\", \"call\": \"VHOST_VDPA_SUSPEND\", \"action\": \"firmware-timeout\", \"timeoutMs\": 150}]");
        CliRun r = vdpactl("--fake-faults", faults.toString(), "--json", "vhost", "suspend", "mlx5-0");
        assertEquals(ExitCode.KERNEL_ERROR.code(), r.exitCode(), r.err());
        JsonNode result = json.readTree(r.out()).get("results").get(0);
        assertTrue(result.get("error").asText().contains("ETIMEDOUT"), result.toString());
    }

    @Test
    void doctorOnTheFakeExplainsThatDevicesAreSimulated() throws Exception {
        CliRun r = vdpactl("--json", "doctor");
        JsonNode doc = json.readTree(r.out());
        assertTrue(doc.get("simulated").asBoolean());
        boolean sawFakeNodeReady = false;
        for (JsonNode c : doc.get("checks")) {
            if (c.get("id").asText().startsWith("node:/dev/vhost-vdpa-") && c.get("id").asText().endsWith(":features")) {
                sawFakeNodeReady |= c.get("status").asText().equals("OK");
            }
        }
        assertTrue(sawFakeNodeReady, "the fake's devices offer SUSPEND and RESUME: " + r.out());
    }

    /**
     * The fake's devlink port function set (issue 35 item 7): the MAC and MTU set on the function are what the next
     * dev add on it reports, from another process through the state file; bad input is one line and its exit code.
     */
    @Test
    void aFunctionSetOnTheMgmtdevGivesTheNextDevAddItsMacAndMtu() throws Exception {
        String mgmt = "pci/0000:08:00.3";
        CliRun set = vdpactl("mgmtdev", "function", "set", mgmt, "--hw-addr", "02:00:00:00:00:35", "--mtu", "9000");
        assertEquals(0, set.exitCode(), set.err());
        assertEquals("", set.out(), "devlink prints nothing either");
        assertEquals(0, vdpactl("dev", "del", "mlx5-1").exitCode(), "the default device on the function");
        CliRun add = vdpactl("dev", "add", "fn0", "--mgmtdev", mgmt);
        assertEquals(0, add.exitCode(), add.err());
        JsonNode cfg = json.readTree(vdpactl("--json", "dev", "config", "fn0").out()).get("config").get("fn0");
        assertEquals("02:00:00:00:00:35", cfg.get("mac").asText(), cfg.toString());
        assertEquals(9000, cfg.get("mtu").asInt(), cfg.toString());
        assertEquals(0, vdpactl("mgmtdev", "function", "set", mgmt, "--link", "down").exitCode());
        assertEquals(0, vdpactl("dev", "del", "fn0").exitCode());
        assertEquals(0, vdpactl("dev", "add", "fn1", "--mgmtdev", mgmt).exitCode());
        JsonNode next = json.readTree(vdpactl("--json", "dev", "config", "fn1").out()).get("config").get("fn1");
        assertEquals("down", next.get("link").asText(), "the function's link at dev add: " + next);
        assertEquals(9000, next.get("mtu").asInt(), "the MTU stays on the function's vport");

        String[] set3 = {"mgmtdev", "function", "set", mgmt};
        expect(ExitCode.USAGE, "give --hw-addr, --mtu or --link", set3);
        expect(ExitCode.USAGE, "use up or down", "mgmtdev", "function", "set", mgmt, "--link", "sideways");
        expect(ExitCode.USAGE, "multicast", "mgmtdev", "function", "set", mgmt, "--hw-addr", "01:00:5e:00:00:01");
        expect(ExitCode.USAGE, "out of range", "mgmtdev", "function", "set", mgmt, "--mtu", "67");
        expect(ExitCode.NOT_FOUND, "no management device", "mgmtdev", "function", "set", "pci/0000:09:00.0", "--mtu", "9000");
        expect(ExitCode.NOT_SUPPORTED, "software device", "mgmtdev", "function", "set", "vdpasim_net", "--mtu", "9000");
        CliRun host = CliRun.of("--backend", "kernel", "mgmtdev", "function", "set", mgmt, "--mtu", "9000");
        assertEquals(ExitCode.NOT_SUPPORTED.code(), host.exitCode(), host.err());
        assertTrue(host.err().contains("devlink port function set"), host.err());
        assertTrue(host.noStackTrace(), host.err());
    }

    /**
     * Issue 35 item 7: a link rule on a netlink command naming mlx5-1 takes its function down (the fake's port event);
     * the state keeps the link, so the next device added on that function starts with it down.
     */
    @Test
    void aLinkRuleTakesTheFunctionDownForTheNextProcessToo() throws Exception {
        Path faults = Files.writeString(dir.resolve("link.json"),
                "[{\"device\": \"mlx5-1\", \"call\": \"VDPA_CMD_DEV_GET\", \"link\": \"down\"}]");
        CliRun show = vdpactl("--fake-faults", faults.toString(), "dev", "show", "mlx5-1");
        assertEquals(0, show.exitCode(), show.err());
        assertEquals(0, vdpactl("dev", "del", "mlx5-1").exitCode());
        assertEquals(0, vdpactl("dev", "add", "fn2", "--mgmtdev", "pci/0000:08:00.3").exitCode());
        JsonNode cfg = json.readTree(vdpactl("--json", "dev", "config", "fn2").out()).get("config").get("fn2");
        assertEquals("down", cfg.get("link").asText(), "the link the rule left on the function: " + cfg);
    }

    private void expect(ExitCode code, String mentions, String... args) {
        CliRun r = vdpactl(args);
        assertEquals(code.code(), r.exitCode(), () -> String.join(" ", args) + "\n" + r.err());
        assertTrue(r.err().contains(mentions), () -> String.join(" ", args) + ": stderr lacks '" + mentions + "':\n" + r.err());
        assertTrue(r.noStackTrace(), r.err());
        assertEquals(1, r.errorLines(), () -> "expected one error line:\n" + r.err());
    }
}
