package org.vdpactl.mgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.vdpactl.sys.PanamaSyscalls;

/**
 * vdpactl's {@code vdpa -j} view against iproute2's own output on the same kernel (the VM lane,
 * where the {@code vdpa} binary is installed). iproute2's documented glitches (trailing spaces in
 * "link " and "link_announce ", bare numbers for unnamed feature bits) are normalised away
 * before comparing; everything else must be identical, key order included.
 */
@Tag("kernel")
class IprouteJsonKernelTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void mgmtdevShowMatchesIproute2() throws Exception {
        try (VdpaNetlink nl = VdpaNetlink.open(new PanamaSyscalls())) {
            assertSame(iproute2("mgmtdev", "show"), IprouteJson.mgmtdevs(nl.mgmtDevices()));
        }
    }

    @Test
    void devShowMatchesIproute2() throws Exception {
        try (VdpaNetlink nl = VdpaNetlink.open(new PanamaSyscalls())) {
            assertSame(iproute2("dev", "show"), IprouteJson.devs(nl.devices()));
            assertSame(iproute2("dev", "show", "vdpa0"), IprouteJson.devs(List.of(nl.device("vdpa0"))));
        }
    }

    @Test
    void netConfigShowMatchesIproute2() throws Exception {
        try (VdpaNetlink nl = VdpaNetlink.open(new PanamaSyscalls())) {
            assertSame(iproute2("dev", "config", "show", "vdpa0"), IprouteJson.configs(List.of(nl.config("vdpa0"))));
        }
    }

    /** The CLI prints the same documents: `vdpactl --json X` against `vdpa -j Y`. */
    @Test
    void cliJsonMatchesIproute2() throws Exception {
        String[][] pairs = {
            {"mgmtdev list", "mgmtdev show"},
            {"dev list", "dev show"},
            {"dev config vdpa0", "dev config show vdpa0"},
        };
        for (String[] pair : pairs) {
            String[] cli = ("--backend kernel --json " + pair[0]).split(" ");
            org.vdpactl.cli.CliRun r = org.vdpactl.cli.CliRun.of(cli);
            assertEquals(0, r.exitCode(), pair[0] + ": " + r.err());
            JsonNode expected = normalise(iproute2(pair[1].split(" ")), null);
            assertEquals(expected.toString(), JSON.readTree(r.out()).toString(), "vdpactl " + pair[0] + " vs vdpa -j " + pair[1]);
        }
    }

    private static void assertSame(JsonNode iproute2, ObjectNode ours) throws IOException {
        JsonNode expected = normalise(iproute2, null);
        JsonNode actual = JSON.readTree(JSON.writeValueAsString(ours));
        assertEquals(expected.toString(), actual.toString());
    }

    /** Removes iproute2's glitches: trailing spaces in keys, numbers among feature names. */
    static JsonNode normalise(JsonNode n, String key) {
        if (n.isObject()) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                String k = e.getKey().strip();
                o.set(k, normalise(e.getValue(), k));
            }
            return o;
        }
        if (n.isArray()) {
            ArrayNode a = JsonNodeFactory.instance.arrayNode();
            boolean features = key != null && key.endsWith("features");
            for (JsonNode x : n) {
                a.add(features && x.isNumber() ? JsonNodeFactory.instance.textNode("bit_" + x.asInt()) : normalise(x, null));
            }
            return a;
        }
        return n;
    }

    private static JsonNode iproute2(String... args) throws IOException, InterruptedException {
        Path vdpa = List.of(Path.of("/usr/sbin/vdpa"), Path.of("/sbin/vdpa"), Path.of("/usr/bin/vdpa")).stream()
                .filter(Files::isExecutable).findFirst().orElse(null);
        if (vdpa == null) {
            throw new AssertionError("the kernel lane needs iproute2's vdpa tool (.ci/run installs iproute2)");
        }
        String[] cmd = new String[args.length + 2];
        cmd[0] = vdpa.toString();
        cmd[1] = "-j";
        System.arraycopy(args, 0, cmd, 2, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), String.join(" ", cmd) + ": " + out);
        return JSON.readTree(out);
    }
}
