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

/**
 * iproute2's {@code vdpa -j} for the kernel lane's tests (the lane VM installs iproute2), and the
 * normalisation that removes its documented glitches (trailing spaces in "link " and
 * "link_announce ", bare numbers for unnamed feature bits) before a comparison.
 */
public final class Iproute2Vdpa {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Iproute2Vdpa() {
    }

    /** The JSON document of {@code vdpa -j ARGS}; fails the test when the tool is missing or fails. */
    public static JsonNode json(String... args) throws IOException, InterruptedException {
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

    /** {@code n} without iproute2's glitches: keys stripped, numbers among feature names as "bit_N". */
    public static JsonNode normalise(JsonNode n) {
        return normalise(n, null);
    }

    private static JsonNode normalise(JsonNode n, String key) {
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
}
