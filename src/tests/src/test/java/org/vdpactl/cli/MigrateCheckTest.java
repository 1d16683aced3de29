package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.abi.UapiIoctl;

/**
 * {@code migrate facts} and {@code migrate check} on the fake: hosts that differ in kernel profile,
 * provisioned features, MTU, max queue pairs, MAC, memlock and QEMU version, each with the verdict
 * (and blocker, path or warning) docs/migrate.md says it must get. A host is a fake state file whose
 * facts document is written by {@code migrate facts --json}; what a running VM would add (the guest's
 * negotiated features, a holder) or another host's limits are edited into that document, as the other
 * host's vdpactl would have written them.
 */
class MigrateCheckTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** mlx5-0's offered features on 6.12 and 7.2 (docs/lane-records/fake-*-features.json's mlx5 row). */
    private static final long MLX5_612 = 0x300cb198bL;
    private static final long CSUM = 1L;
    private static final long GUEST_TSO4 = 1L << 7;
    private static final long CTRL_MAC_ADDR = 1L << 23;

    @TempDir
    Path dir;

    private int hosts;

    /** A host: its own fake state on {@code kernel}, {@code setup} commands run on it, then its facts document (edited). */
    private Path host(String kernel, String qemu, Consumer<ObjectNode> edit, String[]... setup) throws Exception {
        int n = ++hosts;
        Path state = dir.resolve("state-" + n + ".json");
        boolean first = true;
        for (String[] cmd : setup) {
            List<String> full = new ArrayList<>();
            if (first) {
                full.addAll(List.of("--fake-kernel", kernel));
                first = false;
            }
            full.addAll(List.of(cmd));
            CliRun r = CliRun.onFake(state, full.toArray(String[]::new));
            assertEquals(0, r.exitCode(), String.join(" ", cmd) + ": " + r.err());
        }
        List<String> facts = new ArrayList<>(List.of("--json", "migrate", "facts", "--host", "host" + n, "--qemu-version", qemu));
        if (first) {
            facts.addAll(0, List.of("--fake-kernel", kernel));
        }
        CliRun r = CliRun.onFake(state, facts.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.err());
        ObjectNode doc = (ObjectNode) JSON.readTree(r.out());
        assertEquals(kernel, doc.at("/kernel/profile").asText());
        edit.accept(doc);
        Path file = dir.resolve("host" + n + ".json");
        Files.writeString(file, JSON.writeValueAsString(doc));
        return file;
    }

    private Path host(String kernel, String qemu, String[]... setup) throws Exception {
        return host(kernel, qemu, d -> { }, setup);
    }

    private static ObjectNode device(ObjectNode doc, String name) {
        for (JsonNode d : doc.get("devices")) {
            if (d.get("name").asText().equals(name)) {
                return (ObjectNode) d;
            }
        }
        throw new AssertionError("no device " + name);
    }

    /** The guest negotiated {@code bits} on {@code name} (what VDPA_ATTR_DEV_NEGOTIATED_FEATURES says while a VM runs). */
    private static Consumer<ObjectNode> guest(String name, long bits) {
        return doc -> device(doc, name).put("negotiated_features", "0x" + Long.toHexString(bits));
    }

    private static long offered(ObjectNode doc, String name) {
        return Long.parseUnsignedLong(device(doc, name).get("features").asText().substring(2), 16);
    }

    /** A guest that negotiated everything its device offers (no guest-less warning). */
    private static Consumer<ObjectNode> fullGuest(String... names) {
        return doc -> {
            for (String n : names) {
                device(doc, n).put("negotiated_features", "0x" + Long.toHexString(offered(doc, n)));
            }
        };
    }

    private record Check(CliRun run, JsonNode doc) {
        JsonNode pair(String source) {
            for (JsonNode p : doc.get("pairs")) {
                if (p.get("source").asText().equals(source)) {
                    return p;
                }
            }
            throw new AssertionError("no pair of " + source + ": " + doc);
        }

        List<String> ids(String source, String kind) {
            List<String> out = new ArrayList<>();
            pair(source).get(kind).forEach(f -> out.add(f.get("id").asText()));
            return out;
        }

        String path(String source, String field) {
            return pair(source).at("/path/" + field).asText();
        }
    }

    private Check check(Path src, Path dst, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--json", "migrate", "check", "--source", src.toString(), "--dest", dst.toString()));
        args.addAll(List.of(more));
        CliRun r = CliRun.onFake(dir.resolve("checker.json"), args.toArray(String[]::new));
        assertTrue(r.noStackTrace(), r.err());
        JsonNode doc = JSON.readTree(r.out());
        assertEquals(doc.get("exit").asInt(), r.exitCode(), r.err());
        return new Check(r, doc);
    }

    private static String[] cmd(String... words) {
        return words;
    }

    @ParameterizedTest
    @ValueSource(strings = {"6.12", "7.2"})
    void alikeHostsMigrateOnQemu10WithSuspendAndAnIsolatedControlQueue(String kernel) throws Exception {
        Path a = host(kernel, "10.0.13", fullGuest("mlx5-0", "vdpa0"));
        Path b = host(kernel, "10.0.13");
        Check c = check(a, b, "mlx5-0", "vdpa0");
        assertEquals(0, c.run().exitCode(), c.run().out());
        for (String dev : List.of("mlx5-0", "vdpa0")) {
            assertEquals("compatible", c.pair(dev).get("verdict").asText(), c.pair(dev).toString());
            assertEquals("at-migration-start", c.path(dev, "svq"));
            assertEquals("suspend", c.path(dev, "stop"));
            assertEquals("isolated", c.path(dev, "cvq"));
            assertFalse(c.pair(dev).at("/path/resume_for_rollback").asBoolean());
        }
        assertTrue(c.pair("mlx5-0").at("/path/rehearsal/0/command").asText().contains("--strategy svq --window in-place"));
    }

    @Test
    void qemu72MigratesOnlyWithXsvqAndRefusesItForFeaturesShadowQueuesCannotHandle() throws Exception {
        Path a = host("6.12", "7.2.13", fullGuest("mlx5-0", "vdpa0"));
        Path b = host("6.12", "7.2.13");
        Check without = check(a, b, "mlx5-0", "vdpa0");
        assertEquals(10, without.run().exitCode());
        assertEquals(List.of("needs-x-svq"), without.ids("vdpa0", "blockers"));
        assertEquals("required", without.path("vdpa0", "svq"));
        assertEquals("reset", without.path("vdpa0", "stop"), "7.2 never suspends");

        Check with = check(a, b, "mlx5-0", "vdpa0", "--x-svq");
        assertEquals("compatible", with.pair("vdpa0").get("verdict").asText(), with.pair("vdpa0").toString());
        assertEquals("shadowed", with.path("vdpa0", "cvq"));
        assertEquals("reset", with.path("vdpa0", "stop"));
        // 7.2's vdpa_svq_device_features has no VIRTIO_NET_F_CTRL_VLAN, which mlx5 offers
        assertTrue(with.ids("mlx5-0", "blockers").contains("svq-features"), with.pair("mlx5-0").toString());
        assertTrue(with.pair("mlx5-0").get("blockers").toString().contains("VIRTIO_NET_F_CTRL_VLAN"));
        assertEquals(10, with.run().exitCode());
    }

    @Test
    void aGuestFeatureThe61DestinationLacksBlocksAndTheWayBackDoesNot() throws Exception {
        // 6.1's mlx5_vdpa offers no VIRTIO_NET_F_GUEST_TSO4/6; 6.12's does
        Path new612 = host("6.12", "10.0.13", guest("mlx5-1", MLX5_612));
        Path old61 = host("6.1", "10.0.13", fullGuest("mlx5-1"));
        Check forth = check(new612, old61, "mlx5-1");
        assertEquals(10, forth.run().exitCode());
        assertEquals(List.of("features"), forth.ids("mlx5-1", "blockers"));
        assertTrue(forth.pair("mlx5-1").get("blockers").get(0).get("message").asText().contains("VIRTIO_NET_F_GUEST_TSO4"));
        Check back = check(old61, new612, "mlx5-1");
        assertEquals(List.of(), back.ids("mlx5-1", "blockers"), back.pair("mlx5-1").toString());
        assertEquals(0, back.run().exitCode());
    }

    @Test
    void aDestinationProvisionedWithoutANegotiatedFeatureBlocks() throws Exception {
        Path a = host("6.12", "10.0.13", guest("mlx5-0", MLX5_612));
        Path b = host("6.12", "10.0.13", cmd("dev", "del", "mlx5-0"),
                cmd("dev", "add", "mlx5-0", "--mgmtdev", "pci/0000:08:00.2", "--max-vqp", "16",
                        "--features", "0x" + Long.toHexString(MLX5_612 & ~CSUM)));
        Check c = check(a, b, "mlx5-0");
        assertEquals(List.of("features"), c.ids("mlx5-0", "blockers"));
        assertTrue(c.pair("mlx5-0").get("blockers").get(0).get("message").asText().contains("VIRTIO_NET_F_CSUM"));
        assertTrue(c.pair("mlx5-0").get("blockers").get(0).get("action").asText().contains("--features 0x" + Long.toHexString(MLX5_612)));
        // the guest that did not negotiate it moves
        Path without = host("6.12", "10.0.13", guest("mlx5-0", MLX5_612 & ~CSUM));
        assertEquals(List.of(), check(without, b, "mlx5-0").ids("mlx5-0", "blockers"));
    }

    @Test
    void aSmallerDestinationMtuBlocksALargerOneDoesNot() throws Exception {
        Path a = host("6.12", "10.0.13", guest("mlx5-0", MLX5_612));
        Path small = host("6.12", "10.0.13", cmd("dev", "del", "mlx5-0"),
                cmd("dev", "add", "mlx5-0", "--mgmtdev", "pci/0000:08:00.2", "--max-vqp", "16", "--mtu", "1400"));
        Path large = host("6.12", "10.0.13", cmd("dev", "del", "mlx5-0"),
                cmd("dev", "add", "mlx5-0", "--mgmtdev", "pci/0000:08:00.2", "--max-vqp", "16", "--mtu", "9000"));
        Check c = check(a, small, "mlx5-0");
        assertEquals(List.of("mtu"), c.ids("mlx5-0", "blockers"));
        assertTrue(c.pair("mlx5-0").get("blockers").get(0).get("action").asText().contains("--mtu 1500"));
        assertEquals(List.of(), check(a, large, "mlx5-0").ids("mlx5-0", "blockers"));
    }

    @Test
    void differentMaxQueuePairsBlock() throws Exception {
        Path a = host("6.12", "10.0.13", guest("mlx5-0", MLX5_612));
        Path b = host("6.12", "10.0.13", cmd("dev", "del", "mlx5-0"),
                cmd("dev", "add", "mlx5-0", "--mgmtdev", "pci/0000:08:00.2", "--max-vqp", "8"));
        Check c = check(a, b, "mlx5-0");
        assertEquals(List.of("queue-pairs"), c.ids("mlx5-0", "blockers"));
        assertTrue(c.pair("mlx5-0").get("blockers").get(0).get("action").asText().contains("--max-vqp 16"));
    }

    @Test
    void aPinningDestinationBelowTheVmsMemoryBlocksUnlessItHasCapIpcLock() throws Exception {
        Path a = host("6.12", "10.0.13", fullGuest("mlx5-0", "vdpa0"));
        Consumer<ObjectNode> low = d -> {
            d.put("cap_ipc_lock", false);
            ((ObjectNode) d.get("memlock")).put("soft_bytes", 65536).put("hard_bytes", 65536);
        };
        Path b = host("6.12", "10.0.13", low);
        Check c = check(a, b, "mlx5-0", "vdpa0", "--memory", "2G");
        assertEquals(List.of("memlock"), c.ids("mlx5-0", "blockers"));
        assertEquals(List.of(), c.ids("vdpa0", "blockers"), "vdpa_sim maps user addresses: nothing pinned");
        Path capable = host("6.12", "10.0.13", low.andThen(d -> d.put("cap_ipc_lock", true)));
        assertEquals(List.of(), check(a, capable, "mlx5-0", "--memory", "2G").ids("mlx5-0", "blockers"));
    }

    @Test
    void aDifferentMacIsGivenThroughAnIsolatedControlQueueWithCtrlMacAddrOrByQemusConfigWriteOnVdpaSim() throws Exception {
        // mlx5_vdpa ignores config writes: only the control queue can give the guest's MAC
        String[] del = cmd("dev", "del", "mlx5-0");
        String[] add = cmd("dev", "add", "mlx5-0", "--mgmtdev", "pci/0000:08:00.2", "--max-vqp", "16", "--mac", "02:00:00:00:00:09");
        Path other = host("6.12", "10.0.13", del, add);
        String[] addSource = cmd("dev", "add", "mlx5-0", "--mgmtdev", "pci/0000:08:00.2", "--max-vqp", "16", "--mac", "02:00:00:00:00:08");
        Path a = host("6.12", "10.0.13", fullGuest("mlx5-0"), del, addSource);
        Check given = check(a, other, "mlx5-0");
        assertEquals(List.of(), given.ids("mlx5-0", "blockers"), given.pair("mlx5-0").toString());
        // with CTRL_MAC_ADDR but a destination control queue that is not shadowed, nothing gives it either
        Path otherShared = host("6.12", "10.0.13", d -> ((ObjectNode) device(d, "mlx5-0").get("cvq")).put("isolable", false)
                .put("reason", "the device has 1 address space"), del, add);
        assertEquals(List.of("mac"), check(a, otherShared, "mlx5-0").ids("mlx5-0", "blockers"));
        Path noCtrlMac = host("6.12", "10.0.13", d -> guest("mlx5-0", offered(d, "mlx5-0") & ~CTRL_MAC_ADDR).accept(d), del, addSource);
        Check c = check(noCtrlMac, other, "mlx5-0");
        assertEquals(List.of("mac"), c.ids("mlx5-0", "blockers"));
        assertTrue(c.pair("mlx5-0").get("blockers").get(0).get("action").asText().contains("dev set mlx5-0 --mac 02:00:00:00:00:08"),
                c.pair("mlx5-0").toString());
        // vdpa_sim stores QEMU's write of the VM's MAC at start (virtio_net_device_realize): no blocker, with or
        // without CTRL_MAC_ADDR or a shadowed control queue (the lane's "mac" case saw it against QEMU 7.2 and 10.0)
        Path otherSim = host("6.12", "10.0.13", d -> ((ObjectNode) device(d, "vdpa0").get("cvq")).put("isolable", false)
                .put("reason", "the device has 1 address space"), cmd("dev", "del", "vdpa0"),
                cmd("dev", "add", "vdpa0", "--mgmtdev", "vdpasim_net", "--mac", "02:00:00:00:00:09"));
        Path simNoCtrlMac = host("6.12", "10.0.13", d -> guest("vdpa0", offered(d, "vdpa0") & ~CTRL_MAC_ADDR).accept(d));
        Check sim = check(simNoCtrlMac, otherSim, "vdpa0");
        assertEquals(List.of(), sim.ids("vdpa0", "blockers"), sim.pair("vdpa0").toString());
    }

    @Test
    void aMissingOrHeldDestinationBlocks() throws Exception {
        Path a = host("6.12", "10.0.13", fullGuest("mlx5-0"));
        Path held = host("6.12", "10.0.13", d -> device(d, "mlx5-0").putArray("held_by").add("pid 4242 (qemu-system-x86_64)"));
        Check c = check(a, held, "mlx5-0");
        assertEquals(List.of("held"), c.ids("mlx5-0", "blockers"));
        assertTrue(c.pair("mlx5-0").get("blockers").get(0).get("message").asText().contains("pid 4242"));
        Check missing = check(a, held, "--pair", "mlx5-0:mlx5-9");
        assertEquals(List.of("missing"), missing.ids("mlx5-0", "blockers"));
        assertEquals(10, missing.run().exitCode());
    }

    @Test
    void withoutSuspendTheStopIsAResetAndWithoutIsolationTheControlQueueStateIsNotReplayed() throws Exception {
        Path a = host("6.12", "10.0.13", fullGuest("mlx5-0").andThen(d -> device(d, "mlx5-0").put("backend_features", "0x6")));
        Path b = host("6.12", "10.0.13", d -> ((ObjectNode) device(d, "mlx5-0").get("cvq")).put("isolable", false)
                .put("reason", "data virtqueue 0 shares the control queue's group 0"));
        Check c = check(a, b, "mlx5-0");
        assertEquals("reset", c.path("mlx5-0", "stop"));
        assertEquals("passthrough", c.path("mlx5-0", "cvq"));
        assertEquals(List.of("reset-at-stop", "cvq-passthrough"), c.ids("mlx5-0", "warnings"));
        // the action names the kernels whose profiles have SUSPEND; 6.1's has it (docs/spec/kernel-abi.md: 6.1 ✓)
        List<String> withSuspend = KernelProfiles.all().stream().filter(p -> p.hasIoctl(UapiIoctl.VHOST_VDPA_SUSPEND))
                .map(KernelProfile::version).toList();
        assertTrue(withSuspend.contains("6.1"), withSuspend.toString());
        String action = c.pair("mlx5-0").get("warnings").get(0).get("action").asText();
        assertTrue(action.contains("VHOST_VDPA_SUSPEND (of the profiled kernels: " + String.join(", ", withSuspend) + ")"), action);
        assertEquals("warnings", c.pair("mlx5-0").get("verdict").asText());
        assertEquals(0, c.run().exitCode(), "warnings do not block");
    }

    @Test
    void aQemuBetweenRowsUsesTheOlderRowAndSaysSoNoQemuBlocks() throws Exception {
        Path a = host("6.12", "9.2.0", fullGuest("vdpa0"));
        Path b = host("6.12", "9.2.0");
        Check c = check(a, b, "vdpa0");
        assertTrue(c.ids("vdpa0", "warnings").contains("qemu-version"), c.pair("vdpa0").toString());
        assertEquals("7.2", c.path("vdpa0", "qemu_source"));
        Check none = check(a, b, "vdpa0", "--source-qemu", "6.2.0");
        assertTrue(none.ids("vdpa0", "blockers").contains("qemu"), none.pair("vdpa0").toString());
        Check given = check(a, b, "vdpa0", "--source-qemu", "10.0.2", "--dest-qemu", "10.0.2");
        assertEquals(List.of(), given.ids("vdpa0", "warnings"), given.pair("vdpa0").toString());
    }

    @Test
    void aFactsDocumentIsTheOnlyInputAcceptedOneLineOtherwise() throws Exception {
        Path a = host("6.12", "10.0.13");
        CliRun missing = CliRun.onFake(dir.resolve("checker.json"), "migrate", "check", "--source", dir.resolve("nope.json").toString(),
                "--dest", a.toString());
        assertEquals(3, missing.exitCode());
        assertEquals(1, missing.errorLines(), missing.err());
        Path notFacts = dir.resolve("doctor.json");
        Files.writeString(notFacts, "{\"schema\":\"vdpactl.doctor\",\"schema_version\":1}");
        CliRun wrong = CliRun.onFake(dir.resolve("checker.json"), "migrate", "check", "--source", notFacts.toString(), "--dest", a.toString());
        assertEquals(2, wrong.exitCode());
        assertTrue(wrong.err().contains("not a vdpactl.migrate-facts document"), wrong.err());
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"schema\":\"vdpactl.migrate-facts\",\"schema_version\":1,\"devices\":[{\"name\":1}");
        CliRun bad = CliRun.onFake(dir.resolve("checker.json"), "migrate", "check", "--source", broken.toString(), "--dest", a.toString());
        assertEquals(2, bad.exitCode());
        assertTrue(bad.noStackTrace() && bad.errorLines() == 1, bad.err());
        CliRun pair = CliRun.onFake(dir.resolve("checker.json"), "migrate", "check", "--source", a.toString(), "--dest", a.toString(),
                "--pair", "mlx5-0");
        assertEquals(2, pair.exitCode());
    }

    @Test
    void theTextSaysWhatToDoOnEveryFindingLine() throws Exception {
        Path a = host("6.12", "7.2.13", guest("mlx5-0", MLX5_612 | GUEST_TSO4));
        Path b = host("6.1", "7.2.13");
        CliRun r = CliRun.onFake(dir.resolve("checker.json"), "migrate", "check", "--source", a.toString(), "--dest", b.toString(), "mlx5-0");
        assertEquals(10, r.exitCode());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.getFirst().startsWith("migrate host1 → host2: BLOCKED (exit 10)"), r.out());
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).trim();
            if (l.startsWith("BLOCKER ") || l.startsWith("WARNING ")) {
                assertTrue(lines.get(i + 1).trim().startsWith("do: "), "no action after: " + l);
            }
        }
        assertTrue(r.out().contains("BLOCKER needs-x-svq"), r.out());
    }

    @Test
    void rehearseRunsThePathsRehearsalsOnThisHostsDevicesAndSaysWhichItCouldNot() throws Exception {
        Path state = dir.resolve("live.json");
        CliRun r = CliRun.onFake(state, "--fake-clock", "virtual", "--json", "migrate", "check", "mlx5-0", "--pair", "mlx5-0:mlx5-1",
                "--source-qemu", "10.0.13", "--dest-qemu", "10.0.13", "--memory", "1G", "--rehearse");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode steps = JSON.readTree(r.out()).at("/pairs/0/path/rehearsal");
        assertEquals(2, steps.size(), steps.toString());
        for (JsonNode step : steps) {
            assertTrue(step.get("downtime_ms").asDouble() > 0, step.toString());
            assertTrue(step.get("simulated").asBoolean(), step.toString());
        }
        assertTrue(steps.get(0).get("command").asText().contains("--strategy svq --window in-place"));
        assertTrue(steps.get(1).get("command").asText().contains("--dest mlx5-1"), "DEST replaced by the live destination");
    }

    @Test
    void rehearseOnFactsDocumentsRunsOnTheFakesModelsOfBothHostsDevicesAndSaysSo() throws Exception {
        // the source offers no SUSPEND (its document says so): the reset-at-stop warning gets its cost from the model
        Path a = host("6.12", "10.0.13", fullGuest("mlx5-0").andThen(d -> device(d, "mlx5-0").put("backend_features", "0x6")));
        Path b = host("6.12", "10.0.13");
        Check c = check(a, b, "mlx5-0", "--rehearse", "--memory", "1G");
        JsonNode steps = c.pair("mlx5-0").at("/path/rehearsal");
        assertEquals(2, steps.size(), steps.toString());
        for (JsonNode step : steps) {
            assertTrue(step.get("downtime_ms").asDouble() > 0, step.toString());
            assertTrue(step.get("simulated").asBoolean(), step.toString());
            assertTrue(step.get("note").asText().startsWith("simulated on the fake's model of host1's mlx5-0 (kernel profile 6.12,"
                    + " mlx5_vdpa"), step.toString());
        }
        assertTrue(steps.get(0).get("note").asText().contains("16 queue pair(s)"), steps.get(0).toString());
        assertTrue(steps.get(1).get("note").asText().contains(" and host2's mlx5-0 (kernel profile 6.12"), steps.get(1).toString());
        assertTrue(steps.get(1).get("command").asText().contains("--dest mlx5-0"), steps.get(1).toString());
        JsonNode reset = c.pair("mlx5-0").get("warnings").get(0);
        assertEquals("reset-at-stop", reset.get("id").asText());
        assertEquals(steps.get(0).get("downtime_ms").asDouble(), reset.get("cost_ms").asDouble(), reset.toString());
        assertTrue(reset.get("cost_from").asText().contains("fake's model of host1's mlx5-0"), reset.toString());
        // hosts of different kernel profiles: the switch in place is rehearsed on the source's model, the copy says why not
        Path old = host("6.1", "10.0.13");
        JsonNode across = check(a, old, "mlx5-0", "--rehearse", "--memory", "1G").pair("mlx5-0").at("/path/rehearsal");
        assertTrue(across.get(0).get("downtime_ms").asDouble() > 0, across.toString());
        assertTrue(across.get(1).get("downtime_ms").isNull() && across.get(1).get("note").asText().contains("kernel profiles differ"),
                across.toString());
        // without --rehearse no figure at all: never typed
        for (JsonNode step : check(a, b, "mlx5-0").pair("mlx5-0").at("/path/rehearsal")) {
            assertTrue(step.get("downtime_ms").isNull(), step.toString());
        }
    }
}
