package org.vdpactl.fake.fault;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.InputFile;
import org.vdpactl.sys.InputKeys;

/**
 * Reads fault rules from JSON (the {@code --fake-faults FILE} format, docs/fake-faults.md):
 * <pre>
 * { "rules": [
 *     { "device": "mlx5-0", "call": "VHOST_VDPA_SUSPEND", "occurrence": 2, "errno": "EIO" },
 *     { "call": "set_map", "occurrence": "every", "delay_ms": 40 },
 *     { "device": "mlx5-*", "call": "resume", "action": "firmware-timeout", "timeout_ms": 60000 } ] }
 * </pre>
 * A bare array of rules is accepted too. Keys are snake_case like vdpactl's output; the camelCase
 * {@code delayMs} and {@code timeoutMs} of earlier releases are still read ({@link InputKeys}).
 */
public final class FaultRules {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** MAX_ERRNO of the kernel: -1..-4095 are the error returns of a syscall. */
    static final int MAX_ERRNO = 4095;
    private static final Set<String> FIELDS = Set.of("device", "call", "occurrence", "count", "errno", "delay_ms",
            "action", "timeout_ms", "link", "comment");
    /** The spelling of earlier releases, still read. */
    private static final Map<String, String> EARLIER_KEYS = Map.of("delayMs", "delay_ms", "timeoutMs", "timeout_ms");
    /** mlx5_core's command timeout (MLX5_TO_CMD_MS). */
    public static final double DEFAULT_FIRMWARE_TIMEOUT_MS = 60_000;

    private FaultRules() {
    }

    /** Reads a rule file; errors name the file and the offending rule. */
    public static List<FaultRule> load(Path file) {
        try {
            return parse(InputFile.readUtf8(file));
        } catch (IOException e) {
            throw new FaultRuleException("cannot read fault file " + file + ": " + InputFile.reason(e), e);
        } catch (FaultRuleException e) {
            throw new FaultRuleException(file + ": " + e.getMessage());
        }
    }

    public static List<FaultRule> parse(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new FaultRuleException("fault rules are not valid JSON: " + e.getOriginalMessage());
        }
        JsonNode array = root != null && root.isObject() ? root.get("rules") : root;
        if (array == null || !array.isArray()) {
            throw new FaultRuleException("fault rules must be a JSON array or an object with a \"rules\" array");
        }
        List<FaultRule> out = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            try {
                out.add(rule(array.get(i)));
            } catch (FaultRuleException e) {
                throw new FaultRuleException("rule #" + (i + 1) + ": " + e.getMessage());
            }
        }
        return out;
    }

    private static FaultRule rule(JsonNode n) {
        if (!n.isObject()) {
            throw new FaultRuleException("must be an object");
        }
        try {
            n = InputKeys.snakeCase(n, EARLIER_KEYS);
        } catch (IllegalArgumentException e) {
            throw new FaultRuleException(e.getMessage());
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                throw new FaultRuleException("unknown field \"" + f + "\" (known: " + FIELDS + ")");
            }
        }
        String device = text(n, "device", "*");
        String call = text(n, "call", null);
        if (call == null || call.isBlank()) {
            throw new FaultRuleException("\"call\" is required");
        }
        if (!FaultCalls.matchesSome(call)) {
            throw new FaultRuleException("unknown call \"" + call + "\" (the rule could never fire); valid calls: "
                    + String.join(", ", FaultCalls.known()) + ", or \"ioctl 0xNNNNNNNN\" for an unnamed ioctl code");
        }
        long occurrence = occurrence(n.get("occurrence"));
        long count = n.has("count") ? positive(n.get("count"), "count") : 1;
        int errno = 0;
        if (n.has("errno")) {
            JsonNode e = n.get("errno");
            errno = e.isInt() ? e.intValue() : Errno.valueOf(e.asText());
            if (errno <= 0 || errno > MAX_ERRNO || Errno.name(errno).equals("E" + errno)) {
                throw new FaultRuleException("errno " + e + " is not a Linux errno (give a name like \"EIO\", or its number)");
            }
        }
        double delayMs = n.has("delay_ms") ? nonNegative(n.get("delay_ms"), "delay_ms") : 0;
        String action = text(n, "action", null);
        double timeoutMs = 0;
        if (action != null) {
            switch (action) {
                case "errno" -> {
                    if (errno == 0) {
                        throw new FaultRuleException("action \"errno\" needs an \"errno\"");
                    }
                }
                case "delay" -> {
                    if (!n.has("delay_ms")) {
                        throw new FaultRuleException("action \"delay\" needs \"delay_ms\"");
                    }
                }
                case "link" -> {
                    // the "link" field says which way; checked below
                }
                case "firmware-timeout" -> timeoutMs = n.has("timeout_ms")
                        ? nonNegative(n.get("timeout_ms"), "timeout_ms") : DEFAULT_FIRMWARE_TIMEOUT_MS;
                default -> throw new FaultRuleException("unknown action \"" + action
                        + "\" (errno, delay, firmware-timeout, link)");
            }
        } else if (n.has("timeout_ms")) {
            throw new FaultRuleException("\"timeout_ms\" needs \"action\": \"firmware-timeout\"");
        }
        FaultRule.Link link = link(text(n, "link", null));
        if ("link".equals(action) && link == FaultRule.Link.NONE) {
            throw new FaultRuleException("action \"link\" needs \"link\": \"down\" or \"up\"");
        }
        if (errno == 0 && delayMs == 0 && timeoutMs == 0 && link == FaultRule.Link.NONE) {
            throw new FaultRuleException("rule does nothing: give \"errno\", \"delay_ms\", \"link\" or \"action\": \"firmware-timeout\"");
        }
        return new FaultRule(device, call, occurrence, count, errno, Math.round(delayMs * 1e6), Math.round(timeoutMs * 1e6),
                link);
    }

    /** The "link" field: the state the function's port goes to when the rule fires. */
    private static FaultRule.Link link(String value) {
        if (value == null) {
            return FaultRule.Link.NONE;
        }
        return switch (value) {
            case "down" -> FaultRule.Link.DOWN;
            case "up" -> FaultRule.Link.UP;
            default -> throw new FaultRuleException("\"link\" must be \"down\" or \"up\", not \"" + value + "\"");
        };
    }

    private static String text(JsonNode n, String field, String dflt) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isTextual()) {
            throw new FaultRuleException("\"" + field + "\" must be a string");
        }
        return v.textValue();
    }

    private static long occurrence(JsonNode v) {
        if (v == null || v.isNull() || (v.isTextual() && v.textValue().equals("every"))) {
            return 0;
        }
        return positive(v, "occurrence");
    }

    private static long positive(JsonNode v, String field) {
        if (!v.canConvertToLong() || !v.isIntegralNumber() || v.longValue() < 1) {
            throw new FaultRuleException("\"" + field + "\" must be a positive integer"
                    + (field.equals("occurrence") ? " or \"every\"" : ""));
        }
        return v.longValue();
    }

    private static double nonNegative(JsonNode v, String field) {
        if (!v.isNumber() || v.doubleValue() < 0) {
            throw new FaultRuleException("\"" + field + "\" must be a non-negative number");
        }
        return v.doubleValue();
    }
}
