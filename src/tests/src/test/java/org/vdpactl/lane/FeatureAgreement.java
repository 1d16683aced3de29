package org.vdpactl.lane;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Compares two feature documents of {@link FeatureProbe} (the fake's and a lane record of the real
 * kernel it imitates) item by item, the items docs/kernel-matrix.md shows: each ioctl, backend
 * feature bit, netlink command and attribute present or absent, plus what an unknown ioctl gets and,
 * when both documents have it from the policy dump, the attributes each command's requests accept.
 * An item only one side has is listed as unmeasured, never counted as agreement.
 */
final class FeatureAgreement {
    private final Map<String, Object> compared = new LinkedHashMap<>();
    private final List<String> differences = new ArrayList<>();
    private final List<String> unmeasured = new ArrayList<>();

    private FeatureAgreement() {
    }

    static FeatureAgreement of(Map<String, Object> fake, Map<String, Object> kernel) {
        FeatureAgreement a = new FeatureAgreement();
        Map<String, Object> f = items(fake);
        Map<String, Object> k = items(kernel);
        for (Map.Entry<String, Object> e : k.entrySet()) {
            if (!f.containsKey(e.getKey())) {
                a.unmeasured.add(e.getKey() + " (only the kernel's record has it)");
            } else if (!Objects.equals(f.get(e.getKey()), e.getValue())) {
                a.differences.add(e.getKey() + ": kernel " + e.getValue() + ", fake " + f.get(e.getKey()));
            } else {
                a.compared.put(e.getKey(), e.getValue());
            }
        }
        f.keySet().stream().filter(key -> !k.containsKey(key)).forEach(key -> a.unmeasured.add(key + " (not in the kernel's record)"));
        return a;
    }

    int agreed() {
        return compared.size();
    }

    List<String> differences() {
        return differences;
    }

    List<String> unmeasured() {
        return unmeasured;
    }

    /** The flat items of one document: "section item" → the value that must agree. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> items(Map<String, Object> doc) {
        Map<String, Object> out = new LinkedHashMap<>();
        ((Map<String, Object>) doc.getOrDefault("ioctls", Map.of())).forEach((name, e) ->
                out.put("ioctl " + name, ((Map<String, Object>) e).get("present")));
        ((Map<String, Object>) doc.getOrDefault("unknown_ioctl", Map.of())).forEach((how, errno) ->
                out.put("unknown ioctl " + how, errno));
        ((Map<String, Object>) doc.getOrDefault("backend_features", Map.of())).forEach((dev, bf) ->
                ((Map<String, Object>) ((Map<String, Object>) bf).get("bits")).forEach((bit, on) ->
                        out.put("backend feature (" + dev + ") " + bit, on)));
        Map<String, Object> nl = (Map<String, Object>) doc.getOrDefault("netlink", Map.of());
        ((Map<String, Object>) nl.getOrDefault("commands", Map.of())).forEach((name, e) ->
                out.put("netlink command " + name, ((Map<String, Object>) e).get("present")));
        ((Map<String, Object>) nl.getOrDefault("attributes", Map.of())).forEach((name, e) ->
                out.put("netlink attribute " + name, ((Map<String, Object>) e).get("present")));
        Map<String, Object> policy = (Map<String, Object>) nl.getOrDefault("policy", Map.of());
        if ("CTRL_CMD_GETPOLICY".equals(policy.get("source"))) {
            ((Map<String, Object>) policy.get("request_attributes")).forEach((cmd, attrs) ->
                    out.put("netlink request attributes of " + cmd, attrs));
        }
        return out;
    }
}
