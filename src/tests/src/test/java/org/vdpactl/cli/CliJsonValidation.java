package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.vdpactl.report.JsonDocument;

/**
 * Checks every JSON document a command printed against the schema shipped for it (docs/json-schemas.md),
 * with a real JSON Schema validator (draft 2020-12). {@link CliRun} calls it for every run that asked
 * for --json, so each test that runs the CLI checks the schemas of what it printed, failing or not.
 */
public final class CliJsonValidation {
    static final String SCHEMA_FOLDER = "org/vdpactl/schemas/";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();

    private CliJsonValidation() {
    }

    /** Validates what a run printed on stdout when its arguments asked for JSON; returns the documents. */
    public static List<JsonNode> check(String[] args, String stdout) {
        if (!JsonError.requested(args) || stdout.isBlank()) {
            return List.of();
        }
        List<JsonNode> docs = parse(stdout, args);
        String expected = expectedSchemaFile(args).orElse(null);
        for (JsonNode doc : docs) {
            String file = schemaFileOf(doc);
            if (expected != null && !file.equals(JsonDocument.ERROR.fileName())) {
                assertEquals(expected, file, "vdpactl " + String.join(" ", args) + " printed the wrong kind of document");
            }
            List<Error> errors = validate(file, doc);
            if (!errors.isEmpty()) {
                fail("vdpactl " + String.join(" ", args) + ": the document does not match " + file + ":\n  "
                        + String.join("\n  ", errors.stream().map(Error::toString).toList()) + "\ndocument: " + doc);
            }
        }
        return docs;
    }

    /** The schema violations of {@code doc} against the shipped schema {@code file} (empty when it conforms). */
    public static List<Error> validate(String file, JsonNode doc) {
        return schema(file).validate(doc);
    }

    static Schema schema(String file) {
        return SCHEMAS.computeIfAbsent(file, f -> {
            try (InputStream in = CliJsonValidation.class.getClassLoader().getResourceAsStream(SCHEMA_FOLDER + f)) {
                assertNotNull(in, "no schema " + SCHEMA_FOLDER + f + " on the class path");
                return REGISTRY.getSchema(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** One document per line, or one indented document with --pretty: read them as a sequence either way. */
    private static List<JsonNode> parse(String stdout, String[] args) {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = JSON.readerFor(JsonNode.class).readValues(stdout)) {
            while (it.hasNextValue()) {
                docs.add(it.nextValue());
            }
        } catch (IOException e) {
            fail("vdpactl " + String.join(" ", args) + " printed no valid JSON on stdout: " + e.getMessage() + "\n" + stdout);
        }
        return docs;
    }

    /**
     * The schema file of a document: vdpactl's own say which they are ({@code "schema"}); the iproute2-shaped
     * documents of the vdpa family are known by their one top-level key.
     */
    static String schemaFileOf(JsonNode doc) {
        String name = doc.path("schema").asText("");
        for (JsonDocument d : JsonDocument.values()) {
            if (d.schemaName().equals(name)) {
                return d.fileName();
            }
        }
        if (doc.isObject() && doc.size() == 1) {
            String key = doc.fieldNames().next();
            if (List.of("mgmtdev", "dev", "config", "vstats").contains(key)) {
                return "iproute-" + key + ".schema.json";
            }
        }
        fail("a JSON document of unknown kind (no known \"schema\" and not an iproute2 shape): " + doc);
        return null;
    }

    /** The document kind a command line prints (an error document is always allowed as well). */
    static Optional<String> expectedSchemaFile(String[] args) {
        List<String> a = Arrays.asList(args);
        for (int i = 0; i < a.size(); i++) {
            String next = i + 1 < a.size() ? a.get(i + 1) : "";
            String file = switch (a.get(i)) {
                case "rehearse" -> a.stream().anyMatch(x -> x.equals("--compare") || x.startsWith("--compare="))
                        ? JsonDocument.COMPARE.fileName() : JsonDocument.REHEARSAL.fileName();
                case "bench" -> JsonDocument.BENCH.fileName();
                case "doctor" -> JsonDocument.DOCTOR.fileName();
                case "vhost" -> next.equals("info") ? JsonDocument.VHOST_INFO.fileName() : JsonDocument.VHOST_TIMING.fileName();
                case "report" -> JsonDocument.FLEET.fileName();
                case "migrate" -> next.equals("facts") ? JsonDocument.MIGRATE_FACTS.fileName() : JsonDocument.MIGRATE_CHECK.fileName();
                case "mgmtdev" -> "iproute-mgmtdev.schema.json";
                case "dev" -> switch (next) {
                    case "config" -> "iproute-config.schema.json";
                    case "vstats" -> "iproute-vstats.schema.json";
                    default -> "iproute-dev.schema.json";
                };
                default -> null;
            };
            if (file != null) {
                return Optional.of(file);
            }
        }
        return Optional.empty();
    }
}
