package org.vdpactl.vhost;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A decoded config space as named fields for people: "MAC", "status", "max VQ pairs", "MTU", ... in
 * the order of the virtio structure, each value readable (status bits named, unknown speed and duplex
 * said so, a nested structure on one line). Fields the source did not carry are left out.
 */
final class ConfigFields {
    /** Labels that are not simply the component's words. */
    private static final Map<String, String> LABELS = Map.ofEntries(
            Map.entry("mac", "MAC"),
            Map.entry("mtu", "MTU"),
            Map.entry("maxVirtqueuePairs", "max VQ pairs"),
            Map.entry("rssMaxKeySize", "RSS max key size"),
            Map.entry("rssMaxIndirectionTableLength", "RSS max indirection table"),
            Map.entry("supportedHashTypes", "supported hash types"),
            Map.entry("sizeMax", "size max"),
            Map.entry("segMax", "seg max"),
            Map.entry("blkSize", "block size"),
            Map.entry("numQueues", "queues"),
            Map.entry("deviceId", "virtio id"));

    private ConfigFields() {
    }

    /** Label to value, in declaration order; the config-space length is not a field of the device's. */
    public static Map<String, String> of(DeviceConfig config) {
        Map<String, String> out = new LinkedHashMap<>();
        for (RecordComponent c : config.getClass().getRecordComponents()) {
            if (c.getName().equals("length")) {
                continue;
            }
            Object v = value(c, config);
            if (v != null) {
                out.put(label(c.getName()), format(config, c.getName(), v));
            }
        }
        return out;
    }

    private static String format(DeviceConfig config, String name, Object v) {
        if (config instanceof NetConfig && name.equals("status")) {
            int s = (Integer) v;
            List<String> bits = new ArrayList<>();
            if ((s & 1) != 0) {
                bits.add("LINK_UP");
            }
            if ((s & 2) != 0) {
                bits.add("ANNOUNCE");
            }
            return String.format("0x%x", s) + (bits.isEmpty() ? " (link down)" : " (" + String.join("|", bits) + ")");
        }
        if (config instanceof NetConfig && name.equals("speed")) {
            long speed = (Long) v;
            return speed == 0xFFFFFFFFL ? "unknown" : speed + " Mbit/s";
        }
        if (config instanceof NetConfig && name.equals("duplex")) {
            return switch ((Integer) v) {
                case 0 -> "half";
                case 1 -> "full";
                default -> "unknown";
            };
        }
        if (config instanceof NetConfig && name.equals("supportedHashTypes")) {
            return String.format("0x%x", (Long) v);
        }
        if (v instanceof Record r) {
            List<String> parts = new ArrayList<>();
            for (RecordComponent c : r.getClass().getRecordComponents()) {
                parts.add(label(c.getName()) + " " + value(c, r));
            }
            return String.join(", ", parts);
        }
        return v.toString();
    }

    private static Object value(RecordComponent c, Object record) {
        try {
            return c.getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("record accessor " + c, e);
        }
    }

    /** "maxVirtqueuePairs" is "max VQ pairs"; any other camelCase name its words ("physicalBlockExp": "physical block exp"). */
    static String label(String name) {
        String known = LABELS.get(name);
        if (known != null) {
            return known;
        }
        return name.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }
}
