package org.vdpactl.report.fleet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.vdpactl.report.BackendFields;
import org.vdpactl.report.JsonDocument;
import org.vdpactl.sys.InputFile;

/**
 * Reads the per-host documents of {@code vdpactl rehearse --json} ({@link JsonDocument#REHEARSAL}, schema version
 * {@value JsonDocument#VERSION})
 * for the fleet report. Every problem is a {@link BadFleetInputException} naming the file and what is
 * wrong with it, so that one bad file out of hundreds is easy to find.
 */
public final class RehearsalDocuments {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private RehearsalDocuments() {
    }

    /** Reads one file; the host is the document's {@code host} field, else the file name without ".json". */
    public static HostRehearsal read(Path file) {
        JsonNode doc;
        try {
            doc = MAPPER.readTree(InputFile.readUtf8(file));
        } catch (NoSuchFileException e) {
            throw new BadFleetInputException(file + ": no such file", e);
        } catch (JsonProcessingException e) {
            throw new BadFleetInputException(file + ": not JSON (" + e.getOriginalMessage() + " at line "
                    + e.getLocation().getLineNr() + ")");
        } catch (IOException e) {
            throw new BadFleetInputException(file + ": cannot read (" + InputFile.reason(e) + ")", e);
        }
        return of(doc, file);
    }

    static HostRehearsal of(JsonNode doc, Path file) {
        if (doc == null || !doc.isObject()) {
            throw new BadFleetInputException(file + ": not a rehearsal document (expected a JSON object)");
        }
        String schema = doc.path("schema").asText("");
        String expected = JsonDocument.REHEARSAL.schemaName();
        if (!expected.equals(schema)) {
            throw new BadFleetInputException(file + ": not a rehearsal document (schema '" + schema + "', expected '"
                    + expected + "' from vdpactl rehearse --json)");
        }
        JsonNode version = doc.path("schema_version");
        // a number, as JSON Schema reads it (1.0 is the integer 1): what the schema accepts, the merge reads
        if (!version.isNumber() || version.decimalValue().compareTo(BigDecimal.valueOf(JsonDocument.VERSION)) != 0) {
            throw new BadFleetInputException(file + ": rehearsal document of schema_version " + version
                    + ", this vdpactl reads version " + JsonDocument.VERSION + " (docs/json-schemas.md)");
        }
        String outcome = text(doc, "outcome", file);
        JsonNode plan = object(doc, "plan", file);
        JsonNode stats = object(doc, "statistics", file);
        JsonNode downtime = object(stats, "downtime", file);
        boolean anyCompleted = downtime.path("count").asLong(0) > 0;
        Map<String, Double> phases = new LinkedHashMap<>();
        if (anyCompleted) {
            for (JsonNode name : plan.path("phases")) {
                JsonNode p = stats.path("phases").path(name.asText());
                if (p.path("count").asLong(0) > 0) {
                    phases.put(name.asText(), number(p, "p50_ms", file));
                }
            }
        }
        String failure = null;
        JsonNode f = doc.path("failure");
        if (f.isObject()) {
            failure = f.path("phase").asText("?") + ": " + f.path("call").asText("?") + " on " + f.path("device").asText("?")
                    + " failed with " + f.path("errno_name").asText("?");
        }
        List<String> preparation = new ArrayList<>();
        plan.path("preparation").forEach(n -> preparation.add(n.asText()));
        return new HostRehearsal(hostName(doc, file), file.toString(), outcome, doc.path("simulated").asBoolean(false),
                setup(doc, plan, backend(doc.path("backend"), file)), plan.path("iterations").asInt(0), plan.path("sources").size(),
                anyCompleted ? number(downtime, "p50_ms", file) : null, phases, List.copyOf(preparation), failure, List.of());
    }

    /**
     * The host's setup. The backend is the document's fields (kind, kernel_profile on the fake or kernel_release
     * on the kernel, presets); the kernel is the one the figures are of.
     */
    static HostSetup setup(JsonNode doc, JsonNode plan, BackendFields backend) {
        String kernel = backend.kernelProfile() != null ? backend.kernelProfile() : backend.kernelRelease();
        JsonNode premap = plan.path("premap");
        JsonNode memory = plan.path("memory_bytes");
        JsonNode pairs = plan.path("queue_pairs");
        return new HostSetup(plan.path("strategy").asText("-"), plan.path("window").asText("-"), kernel == null ? "-" : kernel,
                backend.kind(), backend.presets().isEmpty() ? "-" : String.join(",", backend.presets()), doc.path("clock").asText("-"),
                premap.isBoolean() ? premap.asBoolean() : null, memory.isIntegralNumber() ? memory.asLong() : null,
                plan.path("sources").isArray() ? plan.path("sources").size() : null, pairs.isIntegralNumber() ? pairs.asInt() : null);
    }

    /** The document's backend fields; a document without them is no rehearsal document. */
    static BackendFields backend(JsonNode backend, Path file) {
        if (!backend.isObject() || !backend.path("kind").isTextual()) {
            throw new BadFleetInputException(file + ": not a rehearsal document (no 'backend' object with a 'kind')");
        }
        List<String> presets = new ArrayList<>();
        backend.path("presets").forEach(p -> presets.add(p.asText()));
        return new BackendFields(backend.path("kind").asText(), textOrNull(backend, "kernel_profile"),
                textOrNull(backend, "kernel_release"), presets);
    }

    private static String textOrNull(JsonNode parent, String field) {
        JsonNode n = parent.path(field);
        return n.isTextual() ? n.asText() : null;
    }

    static String hostName(JsonNode doc, Path file) {
        String host = doc.path("host").asText("").strip();
        if (!host.isEmpty()) {
            return host;
        }
        String name = file.getFileName().toString();
        return name.endsWith(".json") && name.length() > 5 ? name.substring(0, name.length() - 5) : name;
    }

    private static JsonNode object(JsonNode parent, String field, Path file) {
        JsonNode n = parent.path(field);
        if (!n.isObject()) {
            throw new BadFleetInputException(file + ": not a rehearsal document (no '" + field + "' object)");
        }
        return n;
    }

    private static String text(JsonNode parent, String field, Path file) {
        JsonNode n = parent.path(field);
        if (!n.isTextual()) {
            throw new BadFleetInputException(file + ": not a rehearsal document (no '" + field + "' text)");
        }
        return n.asText();
    }

    private static double number(JsonNode parent, String field, Path file) {
        JsonNode n = parent.path(field);
        if (!n.isNumber()) {
            throw new BadFleetInputException(file + ": not a rehearsal document ('" + field + "' is not a number)");
        }
        return n.asDouble();
    }
}
